/**
 * The Tags field as a combobox (WAI-ARIA 1.2 with a listbox popup): the known tags starting with
 * the tag being typed (after the last comma) are suggested; ArrowDown/ArrowUp move through them,
 * Enter or a click picks one, Escape closes the list. A tag searches once it is complete — a comma,
 * a pick, Enter or leaving the field (form.ts) — never while it is still being typed.
 */
import type { Choices } from './protocol.ts';

/** Suggestions shown at once: the most used of the tags that fit what is typed. */
const SUGGESTIONS = 12;

/** The part of a tags value that names complete tags: up to its last comma, unless the field is left. */
export function completeTags(value: string): string {
  return value.slice(0, value.lastIndexOf(',') + 1);
}

export interface TagField {
  /** Shows the suggestions for what is typed (when the field is focused). */
  update(): void;
  /** Says which of the search's tags no topic has. */
  noteUnknown(tags: readonly string[]): void;
}

export function tagField(input: HTMLInputElement, choices: () => Choices | undefined, picked: () => void): TagField {
  const list = document.getElementById(input.getAttribute('aria-controls')!)!;
  const note = input.closest('[data-tag-field]')!.querySelector<HTMLElement>('[data-tag-note]')!;
  let options: string[] = [];
  let active = -1;
  let known: Set<string> | undefined;

  const open = (shown: boolean) => {
    list.hidden = !shown;
    input.setAttribute('aria-expanded', String(shown));
    if (!shown) setActive(-1);
  };
  const setActive = (i: number) => {
    active = i;
    list.querySelectorAll('[role=option]').forEach((option, n) => option.setAttribute('aria-selected', String(n === i)));
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', `${list.id}-${i}`);
      list.children[i]?.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const update = () => {
    const offered = choices();
    if (!offered || document.activeElement !== input) return;
    const typed = input.value.slice(input.value.lastIndexOf(',') + 1).trim().toLowerCase();
    const chosen = new Set(input.value.split(',').map((tag) => tag.trim().toLowerCase()));
    options = [];
    for (let i = 0; i < offered.tags.length && options.length < SUGGESTIONS; i++) {
      const tag = offered.tags[i]!;
      if (tag.startsWith(typed) && (tag === typed || !chosen.has(tag))) options.push(tag);
    }
    list.replaceChildren(
      ...options.map((tag, i) => {
        const option = document.createElement('li');
        option.id = `${list.id}-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.textContent = tag;
        return option;
      }),
    );
    open(typed !== '' && options.length > 0);
  };
  const pick = (tag: string) => {
    input.value = `${completeTags(input.value)}${completeTags(input.value) ? ' ' : ''}${tag}, `;
    open(false);
    picked();
  };

  input.addEventListener('input', update);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) {
        update();
        open(options.length > 0);
      }
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + options.length + (active < 0 && step < 0 ? 1 : 0)) % options.length);
    } else if (event.key === 'Enter' && !list.hidden && active >= 0) {
      event.preventDefault(); // the pick searches; the form is not also submitted
      pick(options[active]!);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      open(false);
    } else if (event.key === 'Enter') open(false); // the form's submit searches what is typed
  });
  // Pressing on an option keeps the focus in the field; the click picks it.
  list.addEventListener('mousedown', (event) => event.preventDefault());
  list.addEventListener('click', (event) => {
    const option = (event.target as Element).closest('[role=option]');
    if (option) pick(option.textContent!);
  });
  input.addEventListener('blur', () => open(false));

  return {
    update,
    noteUnknown(tags) {
      const offered = choices();
      if (!offered) return;
      known ??= new Set(offered.tags);
      const unknown = tags.filter((tag) => !known!.has(tag));
      note.textContent = unknown.length === 0 ? '' : `No topic is tagged ${unknown.map((tag) => `'${tag}'`).join(', ')}.`;
    },
  };
}
