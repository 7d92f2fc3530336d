import { PROFILE_FIELDS, type MemberRecord } from '../../search/member-search.ts';
import { memberPath, withBase } from '../../model/urls.ts';

/** Fills a clone of the static member card (MemberCard.astro) with one member (text only; the website only when http(s)). */
export function renderMember(template: HTMLTemplateElement, member: MemberRecord, base: string): HTMLElement {
  const card = (template.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  card.dataset.name = member.name;
  const link = card.querySelector<HTMLAnchorElement>('[data-member-link]')!;
  link.textContent = member.name;
  link.href = withBase(base, memberPath(member.name));
  card.querySelector('[data-joined]')!.textContent = member.joined;
  card.querySelector('[data-group]')!.textContent = member.group;
  card.querySelector('[data-topic-count]')!.textContent = String(member.topics);
  for (const field of PROFILE_FIELDS) {
    const box = card.querySelector<HTMLElement>(`[data-field="${field}"]`);
    if (!box) continue;
    const value = member[field];
    if (!value || (field === 'website' && !/^https?:\/\//i.test(value))) {
      box.remove();
      continue;
    }
    const dd = box.querySelector('dd')!;
    const a = dd.querySelector('a');
    if (a) {
      a.href = value;
      a.textContent = value;
    } else dd.textContent = value;
  }
  return card;
}
