import options from 'virtual:tagsite/options';
import { siteData } from '../../build/site-records.ts';
import { paginate } from '../../model/listing.ts';
import { tagSlug } from '../../model/tags.ts';
import type { Topic } from '../../content/topics.ts';

export interface TagPageProps {
  tag: string;
  total: number;
  topics: Topic[];
  page: number;
  pages: number;
}

/** Every page of every tag listing: page 1 at /tags/<tag>/ (`firstPage`), pages 2+ at /tags/<tag>/<n>/. */
export async function tagPagePaths(firstPage: boolean) {
  const { byTag } = await siteData();
  const paths: Array<{ params: Record<string, string>; props: TagPageProps }> = [];
  for (const [tag, topics] of byTag) {
    const pages = paginate(topics, options.pageSize);
    pages.forEach((pageTopics, i) => {
      if ((i === 0) !== firstPage) return;
      const props: TagPageProps = { tag, total: topics.length, topics: pageTopics, page: i + 1, pages: pages.length };
      paths.push({ params: firstPage ? { tag: tagSlug(tag) } : { tag: tagSlug(tag), page: String(i + 1) }, props });
    });
  }
  return paths;
}
