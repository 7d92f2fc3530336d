/** The popularity order of names with counts (tags, authors): most used first, ties A→Z by code unit. */
export function comparePopularity(a: readonly [string, number], b: readonly [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}
