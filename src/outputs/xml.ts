/**
 * Text in XML that tagsite writes itself (feeds, the sitemap). Its own module, without the feed
 * writer's dependencies: the sitemap, and the no-change check that reaches it, load nothing more.
 */

// XML 1.0 cannot carry these characters at all, escaped or not; a title that holds one would
// make the whole feed unreadable.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text with the characters XML 1.0 forbids removed (escaping is the XML writer's job). */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '');
}

/** `&`, `<`, `>`, `"` and `'` as entities: for the few elements written as raw XML. */
export function escapeXml(text: string): string {
  return xmlText(text).replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}
