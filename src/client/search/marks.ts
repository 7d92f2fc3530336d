// Matched words marked in a result's title and excerpt: text nodes and <mark> elements, never HTML.
import { foldWord } from '../../search/words.ts';
import { setText } from '../dom.ts';

const TOKEN = /[\p{L}\p{N}]+(?:\+\+|#)?/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Where `text` holds a word whose folded form is one of `marks`: [start, end) of each, in order. */
export function markedSpans(text: string, marks: ReadonlySet<string>): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(TOKEN)) {
    // Lower case is the whole fold of a word without accents or compatibility forms (most words),
    // and far cheaper than normalising every word of every excerpt.
    const lower = match[0].toLowerCase();
    if (marks.has(ASCII.test(lower) ? lower : foldWord(match[0]))) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** Writes `text` into `node`, each word whose folded form is one of `marks` inside a <mark>. */
export function setMarkedText(node: Element, text: string, marks: ReadonlySet<string>): void {
  const spans = marks.size > 0 ? markedSpans(text, marks) : [];
  if (spans.length === 0) {
    // An entry reused from a search with words may still hold marks: text alone replaces them.
    if (node.childElementCount > 0) node.textContent = text;
    else setText(node, text);
    return;
  }
  const parts: Array<string | HTMLElement> = [];
  let last = 0;
  for (const [start, end] of spans) {
    if (start > last) parts.push(text.slice(last, start));
    const mark = document.createElement('mark');
    mark.textContent = text.slice(start, end);
    parts.push(mark);
    last = end;
  }
  if (last < text.length) parts.push(text.slice(last));
  node.replaceChildren(...parts);
}
