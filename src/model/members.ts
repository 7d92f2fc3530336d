/**
 * The key that ties a topic's author to a member: names compare ignoring case, as the author
 * filter does, so `Mira` and `mira` are one member (members.json refuses two such names).
 */
export function memberKey(name: string): string {
  return name.toLowerCase();
}
