import options from 'virtual:tagsite/options';
import { fromSiteRecords } from '../../build/site-records.ts';
import { memberRecords } from '../../outputs/member-index.ts';
import { EMPTY_MEMBER_QUERY, filterMembers, MEMBERS_PAGE_SIZE, type MemberRecord } from '../../search/member-search.ts';
import { paginate } from '../../model/listing.ts';
import { memberKey } from '../../model/members.ts';
import type { Topic } from '../../content/topics.ts';
import { listingDigestOf, type PageGroup } from '../../build/page-reuse.ts';

export type MembersPageProps =
  | { kind: 'list'; members: MemberRecord[]; total: number; page: number; pages: number; groups: string[] }
  | MemberPageProps;

/** A member's profile with one page of their topics (newest first; pages 2+ at /members/<member>/<n>/). */
export interface MemberPageProps {
  kind: 'member';
  member: MemberRecord;
  topics: Topic[];
  page: number;
  pages: number;
}

/** Every listed member with their topic count, in the member search's default order (name A→Z). */
export const memberList = fromSiteRecords(({ members, topics }): MemberRecord[] =>
  filterMembers(memberRecords(members, topics), EMPTY_MEMBER_QUERY, new Date(0)),
);

/** Each listed member with their topics split into listing pages (`pageSize` a page, at least one page). */
const memberTopicPages = fromSiteRecords(({ topics }) => {
  const byAuthor = new Map<string, Topic[]>();
  for (const topic of topics) {
    const key = memberKey(topic.author);
    let list = byAuthor.get(key);
    if (!list) byAuthor.set(key, (list = []));
    list.push(topic);
  }
  return (member: MemberRecord): Topic[][] => {
    const pages = paginate(byAuthor.get(memberKey(member.name)) ?? [], options.pageSize);
    return pages.length > 0 ? pages : [[]];
  };
});

type MemberPath = { params: Record<string, string>; props: MembersPageProps };

/**
 * A member's first page (the profile, `first`) or further pages of their topics, as a group reused
 * whole while the member and their topics are the same.
 */
function memberGroup(member: MemberRecord, pages: Topic[][], first: boolean): PageGroup<MemberPath> {
  return {
    name: member.slug,
    inputs: () => [member, listingDigestOf(pages.flat())],
    paths: () =>
      (first ? pages.slice(0, 1) : pages.slice(1)).map((topics, i): MemberPath => ({
        params: first ? { slug: member.slug } : { slug: member.slug, page: String(i + 2) },
        props: { kind: 'member', member, topics, page: first ? 1 : i + 2, pages: pages.length } satisfies MemberPageProps,
      })),
  };
}

/** Pages 2+ of each member's topics, in a group for each member: /members/<member>/<n>/. */
export async function memberTopicPageGroups(): Promise<Array<PageGroup<MemberPath>>> {
  const [members, pagesOf] = await Promise.all([memberList(), memberTopicPages()]);
  return members.map((member) => memberGroup(member, pagesOf(member), false));
}

/** Pages 2+ of each member's topics (memberTopicPageGroups), in one list. */
export async function memberTopicPagePaths(): Promise<MemberPath[]> {
  return (await memberTopicPageGroups()).flatMap((group) => group.paths() as MemberPath[]);
}

/** The pages of /members/: page 1 when `firstPage`, else pages 2+ (/members/<n>/). */
async function memberListPaths(firstPage: boolean): Promise<MemberPath[]> {
  const members = await memberList();
  const groups = [...new Set(members.map((member) => member.group))].sort();
  const pages = paginate(members, MEMBERS_PAGE_SIZE);
  const list = pages.map((pageMembers, i) => ({
    params: { slug: String(i + 1) },
    props: { kind: 'list', members: pageMembers, total: members.length, page: i + 1, pages: pages.length, groups } as MembersPageProps,
  }));
  return firstPage ? [list[0]!] : list.slice(1);
}

/** Pages 2+ of /members/ (one group, keyed page by page), and each member's first page (a group for each member). */
export async function memberPageGroups(): Promise<Array<PageGroup<MemberPath>>> {
  const [members, pagesOf] = await Promise.all([memberList(), memberTopicPages()]);
  return [{ name: '(list)', paths: () => memberListPaths(false) }, ...members.map((member) => memberGroup(member, pagesOf(member), true))];
}

/** Pages of /members/ (page 1 when `firstPage`, else /members/<n>/) and each member's first page. */
export async function memberPagePaths(firstPage: boolean): Promise<MemberPath[]> {
  if (firstPage) return memberListPaths(true);
  return (await Promise.all((await memberPageGroups()).map((group) => group.paths()))).flat();
}
