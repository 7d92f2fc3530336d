/**
 * The blocking script in a listing page's <head> (src/client/first-paint.js), as pages inline it:
 * without its comment lines and indentation. Inline, it runs as soon as the parser reaches it, where
 * a file would hold the parser up for a request; the Content-Security-Policy allows exactly this
 * text by its hash (securityHeaders), so `script-src` needs no 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Drops whole-line `//` comments, indentation and blank lines: the script has no multi-line strings. */
export function compactScript(source: string): string {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

/** The CSP source expression that allows an inline script with exactly this text. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The script each listing page inlines. */
export const FIRST_PAINT_SCRIPT = compactScript(readFileSync(new URL('../client/first-paint.js', import.meta.url), 'utf8'));
