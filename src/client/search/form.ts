import { EMPTY_QUERY, parseSearchParams, parseTags, searchParamsOf, type SearchQuery } from '../../search/query.ts';
import { readTypedFilters, wordsWhileTyping } from '../../search/typed-filters.ts';
import { completeTags } from './tag-field.ts';

/** What a field being typed in says so far: the Tags field without the tag after its last comma, the Words without operators (they move on submit). */
function typedSoFar(name: string, value: string): string {
  if (name === 'tags') return completeTags(value);
  if (name === 'q') return wordsWhileTyping(value);
  return value;
}

/**
 * The form's current values as URL parameters (empty fields left out). `typing` leaves out the tag
 * still being typed after the Tags field's last comma, and the operators in the Words (see typedSoFar).
 */
export function formParams(form: HTMLFormElement, typing = false): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, raw] of new FormData(form)) {
    const value = typing && typeof raw === 'string' ? typedSoFar(name, raw) : raw;
    if (typeof value === 'string' && value.trim() !== '') params.set(name, value);
  }
  return params;
}

/** Puts a search into the form's fields. */
export function fillForm(form: HTMLFormElement, query: SearchQuery, keepTyped = true): void {
  const params = searchParamsOf({ ...query, page: 1 });
  const written = params.toString();
  for (const element of Array.from(form.elements) as Array<HTMLInputElement | HTMLSelectElement>) {
    if (!element.name) continue;
    const value = params.get(element.name) ?? '';
    const shown = element instanceof HTMLSelectElement ? value || (element.options[0]?.value ?? '') : value;
    if (element.value === shown) continue; // already says it (the common case after a submit)
    // A field whose value already means this search is left as typed: `api, ` and `clipboard ` keep the
    // comma or space typed before the next word, and `Between dates…` stays chosen before its dates
    // (a choice the search states, such as `custom` for a range, is always shown).
    if (keepTyped && !(element instanceof HTMLSelectElement && value !== '')) {
      const mixed = new URLSearchParams(params);
      // A tag or an operator still being typed is not yet part of the search: it stays as typed.
      const typing = element === document.activeElement;
      mixed.set(element.name, typing ? typedSoFar(element.name, element.value) : element.value);
      if (searchParamsOf(parseSearchParams(mixed).query).toString() === written) continue;
    }
    element.value = shown;
  }
  for (const box of form.querySelectorAll<HTMLElement>('[data-date-field]')) {
    const range = box.querySelector<HTMLElement>('[data-range]')!;
    const hidden = box.querySelector('select')!.value !== 'custom';
    if (range.hidden !== hidden) range.hidden = hidden;
  }
}

export interface FormActions {
  /** Searches for `params` and writes the search to the history. */
  navigate(params: URLSearchParams, mode: 'push' | 'replace'): void;
  /** A text field is being typed in (before the pause that searches). */
  typing(input: HTMLInputElement): void;
  /** The tags of the search shown, comma-separated. */
  shownTags(): string;
  /** The form was submitted (Enter, the Search button): on a phone it folds away. */
  submitted(): void;
}

/** Pause after the last keystroke before a typed search runs. */
const TYPING_PAUSE_MS = 180;

/**
 * Searches as the form is typed in, changed, submitted or cleared; returns the function that
 * searches for the form's values now. On a commit the operators typed in the Words move into their
 * fields (the search, through the address, says the same); the ones not understood stay.
 */
export function wireForm(form: HTMLFormElement, actions: FormActions, fixedTag?: string): () => void {
  let typing: ReturnType<typeof setTimeout> | undefined;
  let typedSinceCommit = false;
  const words = form.elements.namedItem('q') as HTMLInputElement | null;
  const commit = () => {
    typedSinceCommit = false;
    const params = formParams(form);
    if (words) {
      const typed = readTypedFilters(words.value, new Date(), fixedTag === undefined ? {} : { fixedTag });
      if (typed.params.length > 0) words.value = typed.words;
    }
    params.delete('page');
    actions.navigate(params, 'push');
  };
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target instanceof HTMLSelectElement || target.type === 'date' || target.type === 'number') return;
    actions.typing(target);
    // A tag searches once complete (a comma here; Enter, a pick or leaving the field commit it).
    if (target.name === 'tags' && parseTags(completeTags(target.value)).join(',') === actions.shownTags()) return;
    clearTimeout(typing);
    // Typing replaces the current history entry; the first keystroke after a commit starts a new one.
    typing = setTimeout(() => {
      actions.navigate(formParams(form, true), typedSinceCommit ? 'replace' : 'push');
      typedSinceCommit = true;
    }, TYPING_PAUSE_MS);
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    // Text fields search as typed; leaving the Tags field completes the tag typed last.
    if (target instanceof HTMLInputElement && target.type !== 'date' && target.type !== 'number' && target.name !== 'tags') return;
    clearTimeout(typing);
    commit();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    commit();
    actions.submitted();
  });
  form.addEventListener('reset', (event) => {
    event.preventDefault();
    fillForm(form, EMPTY_QUERY, false);
    actions.navigate(new URLSearchParams(), 'push');
  });
  return () => {
    clearTimeout(typing);
    commit();
  };
}
