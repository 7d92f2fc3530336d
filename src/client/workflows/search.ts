/**
 * Searching the workflow list: name, description and author, case-insensitive, typo-tolerant
 * (Fuse.js). Every word must match one of the three fields, so `weather quietfox` finds the
 * weather workflow by that author.
 */
import Fuse from 'fuse.js/basic';
import type { WorkflowListItem } from '../../model/workflow-list.ts';

export interface WorkflowSearch {
  /** The items that match every word, best first; all items in list order for an empty query. */
  search: (query: string) => WorkflowListItem[];
}

export function workflowSearch(items: readonly WorkflowListItem[]): WorkflowSearch {
  const fuse = new Fuse(items, {
    keys: [
      { name: 'workflow-name', weight: 2 },
      { name: 'workflow-description-small', weight: 1 },
      { name: 'workflow-author-name', weight: 1 },
    ],
    includeScore: true,
    isCaseSensitive: false,
    // Words may sit anywhere in a description; 0.3 lets one typo through in words of 4+ letters.
    ignoreLocation: true,
    threshold: 0.3,
  });
  return {
    search(query) {
      const words = query.normalize('NFC').trim().split(/\s+/u).filter(Boolean);
      if (words.length === 0) return [...items];
      let scores: Map<number, number> | undefined;
      for (const word of words) {
        const hits = new Map(fuse.search(word).map((hit) => [hit.refIndex, hit.score ?? 0]));
        scores = scores
          ? new Map([...scores].filter(([index]) => hits.has(index)).map(([index, score]) => [index, score + hits.get(index)!]))
          : hits;
      }
      return [...scores!].sort(([a, sa], [b, sb]) => sa - sb || a - b).map(([index]) => items[index]!);
    },
  };
}
