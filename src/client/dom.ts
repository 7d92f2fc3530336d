/** Writes text only when it changes: an unchanged node needs no new style, layout or text shaping. */
export function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
