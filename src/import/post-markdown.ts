/**
 * A forum's first post, HTML as the forum stores it, turned into the Markdown of a topic file
 * (turndown). Links and images are kept with absolute http/https addresses; anything that could
 * run is dropped: script, style, frames, forms and embedded objects go with their content, event
 * handlers and styles have no Markdown form, and a link or image whose address is `javascript:`,
 * `data:` or another scheme keeps only its text. Text that looks like HTML is escaped, so the
 * Markdown holds no raw tag at all.
 */
import TurndownService from 'turndown';

/** Elements dropped with everything inside them. */
const DROPPED = ['script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'button', 'input', 'select', 'textarea', 'svg', 'math', 'link', 'meta', 'base', 'head', 'title'] as const;

/**
 * The address a link or image may keep: absolute http/https (relative ones resolved against the
 * forum's address), or mailto: for links. Undefined for anything else.
 */
export function safeAddress(raw: string | null | undefined, base: string, allowMail = false): string | undefined {
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`): so does this check.
  const value = (raw ?? '').trim();
  if (value === '' || value.startsWith('#')) return undefined;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  if (allowMail && url.protocol === 'mailto:') return url.href;
  return undefined;
}

/** An address written so that Markdown reads it back whole: spaces and parentheses encoded. */
function markdownUrl(url: string): string {
  return url.replace(/[ ()<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Text for a link's or image's label: one line, brackets escaped. */
function label(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/([[\]\\])/g, '\\$1');
}

function converter(base: string): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.remove((node) => (DROPPED as readonly string[]).includes(node.nodeName.toLowerCase()));
  const escape = service.escape.bind(service);
  // Markdown passes HTML through: a `<` in the text must stay text. `&` before a name and `;` would be read as an entity.
  service.escape = (text: string) => escape(text).replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const href = safeAddress((node as HTMLElement).getAttribute('href'), base, true);
      const text = content.trim();
      if (!href) return text;
      if (text === '') return `<${markdownUrl(href)}>`;
      return `[${text}](${markdownUrl(href)})`;
    },
  });
  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      // Forums load images lazily: the real address is in data-src, src holds a placeholder.
      const src = safeAddress(element.getAttribute('data-src'), base) ?? safeAddress(element.getAttribute('src'), base);
      const alt = label(element.getAttribute('alt') ?? element.getAttribute('title') ?? '');
      if (!src) return alt;
      return `![${alt}](${markdownUrl(src)})`;
    },
  });
  // IPS writes code as <pre class="ipsCode"> with no <code> inside, which turndown reads as text.
  service.addRule('preformatted', {
    filter: (node) => node.nodeName === 'PRE' && node.firstElementChild?.nodeName !== 'CODE',
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/\n$/, '');
      const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((run) => run[0].length + 1)));
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  return service;
}

const converters = new Map<string, TurndownService>();

/** The Markdown of a post's HTML; `base` is the forum's address, against which relative links are resolved. */
export function postMarkdown(html: string, base: string): string {
  let service = converters.get(base);
  if (!service) {
    service = converter(base);
    converters.set(base, service);
  }
  return service.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}
