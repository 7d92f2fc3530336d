import { FACET_GROUPS, facetText, type NamedFacets, type TypeChoice } from '../../search/facets.ts';
import { setText } from '../dom.ts';

/**
 * The facet counts (markup of Facets.astro): groups made once, or found in the page's HTML, and
 * then updated in place, so only changed text is written. A click on a value calls `choose`.
 * Returns the function that shows a search's counts.
 */
export function facetsView(
  box: HTMLElement,
  fixedTag: string | undefined,
  types: () => readonly TypeChoice[],
  choose: (name: string, value: string) => void,
): (counts: NamedFacets) => void {
  const lists = new Map<string, HTMLElement>();
  const groups = FACET_GROUPS.filter((group) => !(fixedTag && group.param === 'tags'));
  for (const section of box.querySelectorAll<HTMLElement>('[data-facet]')) lists.set(section.dataset.facet!, section.querySelector('ul')!);

  box.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>('[data-facet-value]');
    const name = button?.closest<HTMLElement>('[data-facet]')?.dataset.facet;
    if (button && name) choose(name, button.dataset.facetValue!);
  });

  return (counts) => {
    if (box.hidden) box.hidden = false;
    if (lists.size === 0) {
      box.replaceChildren(
        ...groups.map(({ title, param }) => {
          const section = document.createElement('section');
          section.dataset.facet = param;
          const heading = document.createElement('h2');
          heading.textContent = title;
          const list = document.createElement('ul');
          lists.set(param, list);
          section.append(heading, list);
          return section;
        }),
      );
    }
    for (const { param, counts: group } of groups) {
      const list = lists.get(param)!;
      const shown = counts[group];
      shown.forEach(([value, count], i) => {
        let button = list.children[i]?.firstElementChild as HTMLButtonElement | undefined;
        if (!button) {
          const item = document.createElement('li');
          button = document.createElement('button');
          button.type = 'button';
          item.append(button);
          list.append(item);
        }
        if (button.dataset.facetValue !== value) button.dataset.facetValue = value;
        setText(button, facetText(param, value, count, types()));
      });
      while (list.children.length > shown.length) list.lastElementChild!.remove();
    }
  };
}

/** The form's values with a facet's value chosen: a tag joins the tags, any other value replaces its field's. */
export function withFacet(params: URLSearchParams, name: string, value: string): URLSearchParams {
  if (name === 'tags') {
    const tags = (params.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    if (!tags.includes(value)) tags.push(value);
    params.set('tags', tags.join(','));
  } else params.set(name, value);
  return params;
}
