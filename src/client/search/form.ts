import { EMPTY_QUERY, parseSearchParams, searchParamsOf, type SearchQuery } from '../../search/query.ts';

/** The form's current values as URL parameters (empty fields left out). */
export function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') params.set(name, value);
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
      mixed.set(element.name, element.value);
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
}

/** Pause after the last keystroke before a typed search runs. */
const TYPING_PAUSE_MS = 180;

/** Searches as the form is typed in, changed, submitted or cleared. */
export function wireForm(form: HTMLFormElement, actions: FormActions): void {
  let typing: ReturnType<typeof setTimeout> | undefined;
  let typedSinceCommit = false;
  const commit = () => {
    typedSinceCommit = false;
    const params = formParams(form);
    params.delete('page');
    actions.navigate(params, 'push');
  };
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target instanceof HTMLSelectElement || target.type === 'date' || target.type === 'number') return;
    actions.typing(target);
    clearTimeout(typing);
    // Typing replaces the current history entry; the first keystroke after a commit starts a new one.
    typing = setTimeout(() => {
      actions.navigate(formParams(form), typedSinceCommit ? 'replace' : 'push');
      typedSinceCommit = true;
    }, TYPING_PAUSE_MS);
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    if (target instanceof HTMLInputElement && target.type !== 'date' && target.type !== 'number') return;
    commit();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    commit();
  });
  form.addEventListener('reset', (event) => {
    event.preventDefault();
    fillForm(form, EMPTY_QUERY, false);
    actions.navigate(new URLSearchParams(), 'push');
  });
}
