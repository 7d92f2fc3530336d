// Matched words marked in a result's title and excerpt: text nodes and <mark> elements, never HTML.
import { foldWord } from '../../search/words.ts';
import { setText } from '../dom.ts';

const TOKEN = /[\p{L}\p{N}]+(?:\+\+|#)?/gu;

/** Writes `text` into `node`, each word whose folded form is one of `marks` inside a <mark>. */
export function setMarkedText(node: Element, text: string, marks: ReadonlySet<string>): void {
  if (marks.size === 0) {
    // An entry reused from a search with words may still hold marks: text alone replaces them.
    if (node.childElementCount > 0) node.textContent = text;
    else setText(node, text);
    return;
  }
  const parts: Array<string | HTMLElement> = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (!marks.has(foldWord(match[0]))) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    const mark = document.createElement('mark');
    mark.textContent = match[0];
    parts.push(mark);
    last = match.index + match[0].length;
  }
  if (last === 0) return setMarkedText(node, text, new Set());
  if (last < text.length) parts.push(text.slice(last));
  node.replaceChildren(...parts);
}
