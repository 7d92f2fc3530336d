/** The security headers (_headers and README's nginx recipe): one policy, shaped by the options. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../helpers/cli.ts';
import { projectOptions } from '../../src/cli/project.ts';
import { headersForPath, securityHeaderRules, securityHeaders } from '../../src/outputs/headers.ts';
import { createHash } from 'node:crypto';
import { compactScript, FIRST_PAINT_SCRIPT } from '../../src/outputs/first-paint.ts';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

describe('security headers', () => {
  it("README's nginx server block sends the headers the build writes to _headers with the default options", async () => {
    const { options } = await projectOptions(projectRoot);
    const headers = securityHeaders({ topicImages: options.topicImages, connect: [options.workflows.primaryUrl, options.workflows.backupUrl], images: [options.workflows.screenshotBase], inlineScripts: [FIRST_PAINT_SCRIPT] });
    const server = [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((match) => match[1]!).find((block) => block.includes('server {'))!;
    for (const [name, value] of Object.entries(headers)) expect(server).toContain(`add_header ${name} "${value}" always;`);
  });

  it('img-src follows topicImages, connect-src the list addresses on other hosts', () => {
    const policy = (topicImages: 'same-site' | 'any-host', connect: string[], images: string[] = []) => securityHeaders({ topicImages, connect, images })['Content-Security-Policy'];
    expect(policy('same-site', ['/api/workflows.json'])).toContain("img-src 'self';");
    expect(policy('any-host', [])).toContain("img-src 'self' https:;");
    expect(policy('same-site', [], ['https://shots.example/s/'])).toContain("img-src 'self' https://shots.example;");
    expect(policy('same-site', ['https://lists.example/a.json', '/b.json'])).toContain("connect-src 'self' https://lists.example;");
    expect(policy('same-site', [])).toMatch(/script-src 'self';/);
  });

  it('script-src allows an inline script by the sha256 of its exact text, never by unsafe-inline', () => {
    const script = 'document.documentElement.dataset.x = "1";';
    const digest = createHash('sha256').update(script).digest('base64');
    const policy = securityHeaders({ topicImages: 'same-site', connect: [], images: [], inlineScripts: [script] })['Content-Security-Policy'];
    expect(policy).toContain(`script-src 'self' 'sha256-${digest}';`);
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('the first-paint script is inlined without its comment lines, indentation or blank lines', () => {
    expect(compactScript('// note\nif (a) {\n  // inner\n  b("//x");\n}\n\n')).toBe('if (a) {\nb("//x");\n}');
    expect(FIRST_PAINT_SCRIPT).toContain('data-address-filters');
    expect(FIRST_PAINT_SCRIPT.split('\n').some((line) => line.startsWith('//') || line !== line.trim())).toBe(false);
  });

  it('the _headers rule covers every path under base, and a rule of public/_headers for it is kept instead', () => {
    const headers = { 'X-Content-Type-Options': 'nosniff' };
    const rules = securityHeaderRules('/community/', headers);
    expect(headersForPath(rules, '/community/tags/api/')).toEqual(headers);
    expect(headersForPath(rules, '/other/')).toEqual({});
    expect(securityHeaderRules('/', headers, '/*\n  X-Frame-Options: DENY\n')).toBe('');
  });
});
