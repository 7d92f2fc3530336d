import { memberParamsOf, type MemberQuery } from '../../search/member-search.ts';

/** The form's values as URL parameters (the ticked groups as one comma-separated `group`). */
export function formQuery(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  const data = new FormData(form);
  for (const [name, value] of data) if (name !== 'group' && typeof value === 'string' && value.trim()) params.set(name, value.trim());
  const groups = data.getAll('group').map(String);
  if (groups.length) params.set('group', groups.join(','));
  return params;
}

/** Puts a search into the form's fields. */
export function fillForm(form: HTMLFormElement, query: MemberQuery): void {
  const params = memberParamsOf({ ...query, page: 1 });
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    if (element.type === 'checkbox') element.checked = query.groups.some((g) => g.toLowerCase() === element.value.toLowerCase());
    else if (element instanceof HTMLSelectElement) element.value = params.get(element.name) ?? (element.options[0]?.value ?? '');
    else element.value = params.get(element.name) ?? '';
  }
  const dates = form.querySelector<HTMLElement>('[data-date-field="joined"]')!;
  dates.querySelector<HTMLElement>('[data-range]')!.hidden = dates.querySelector('select')!.value !== 'custom';
}
