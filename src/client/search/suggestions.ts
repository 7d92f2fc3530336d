import type { Choices } from './protocol.ts';

/** Names a tags or author field suggests at once: the most used of those that fit what is typed. */
const SUGGESTIONS = 12;

/**
 * Puts into a field's datalist the known names that start with what is being typed (in a tags
 * field, the tag after the last comma, with the tags before it kept in each suggestion). A dozen
 * options at a time keep the browser's own datalist and form code quick on every keystroke.
 */
function suggest(input: HTMLInputElement, names: readonly string[], several: boolean): void {
  const value = input.value;
  const cut = several ? value.lastIndexOf(',') + 1 : 0;
  const typed = value.slice(cut).trim().toLowerCase();
  const kept = cut > 0 ? `${value.slice(0, cut).trimEnd()} ` : '';
  const found: string[] = [];
  for (let i = 0; i < names.length && found.length < SUGGESTIONS; i++) {
    if (names[i]!.toLowerCase().startsWith(typed)) found.push(`${kept}${names[i]}`);
  }
  input.list?.replaceChildren(...found.map((name) => Object.assign(document.createElement('option'), { value: name })));
}

/**
 * Suggestions for the form's author field, from the index's names once it is loaded
 * (`choices` is undefined until then). Fields get them on focus; the returned function updates a
 * field's (call it as the field is typed in, or when the index arrives for the focused element).
 */
export function suggestions(form: HTMLFormElement, choices: () => Choices | undefined): (target: EventTarget | null) => void {
  const update = (target: EventTarget | null) => {
    const offered = choices();
    if (!(target instanceof HTMLInputElement) || !offered) return;
    // The Tags field has its own listbox (tag-field.ts).
    if (target.name === 'author') suggest(target, offered.authors, false);
  };
  form.addEventListener('focusin', (event) => update(event.target));
  return update;
}
