import type { LinkRecord, LinkRecords } from './schema-types.ts';
import type { JsonFile } from './json-file.ts';
import { schemaProblems } from './schema-validation.ts';
import { normaliseTag } from '../model/tags.ts';
import type { Problem } from './problems.ts';

export type { LinkRecord };

/** The rules of SPEC 2.4 that a schema cannot say: tags already normalised, and one record per link. */
function recordProblems(record: Partial<LinkRecord>, index: number, file: string, json: JsonFile, seenLinks: Map<string, number>, faultyFields: ReadonlySet<string> = new Set()): Problem[] {
  const problems: Problem[] = [];
  // Only the values the schema found no fault in: a record's other problems are not hidden behind one.
  (Array.isArray(record.tags) ? record.tags : []).forEach((tag, t) => {
    if (typeof tag === 'string' && !faultyFields.has(`[${index}].tags[${t}]`) && tag !== normaliseTag(tag)) {
      problems.push({
        file,
        line: json.lineOf(`/${index}/tags/${t}`),
        field: `[${index}].tags[${t}]`,
        message: `${JSON.stringify(tag)} must be lower case with single inner spaces (write ${JSON.stringify(normaliseTag(tag))})`,
      });
    }
  });
  if (typeof record.link !== 'string' || faultyFields.has(`[${index}].link`)) return problems;
  const first = seenLinks.get(record.link);
  if (first !== undefined) {
    problems.push({
      file,
      line: json.lineOf(`/${index}/link`),
      field: `[${index}].link`,
      message: `duplicate link ${record.link} (already the link of [${first}])`,
    });
  } else seenLinks.set(record.link, index);
  return problems;
}

/** The indexes of the records of a data file (a list) that some problem is about (`[3].tags[0]` → 3). */
export function faultyRecords(problems: readonly Problem[]): Set<number> {
  const faulty = new Set<number>();
  for (const { field } of problems) {
    const match = /^\[(\d+)\]/.exec(field);
    if (match) faulty.add(Number(match[1]));
  }
  return faulty;
}

/** Validates links.json: the schema, then the rules beyond it. */
export function readLinks(json: JsonFile, file: string): { links: LinkRecord[]; problems: Problem[] } {
  const problems = schemaProblems('links', json.data, file, json.lineOf);
  if (!Array.isArray(json.data)) return { links: [], problems };
  // The rules beyond the schema run on every record the schema found no fault in, so one bad record hides nothing.
  const faulty = faultyRecords(problems);
  const schemaFaults = problems.length;
  const links = json.data as LinkRecords;
  const seenLinks = new Map<string, number>();
  links.forEach((record, i) => {
    if (!faulty.has(i)) problems.push(...recordProblems(record, i, file, json, seenLinks));
  });
  return { links: schemaFaults > 0 ? [] : links, problems };
}

/** Checks one new record against the schema and the existing records (used by add-link). */
export function newLinkProblems(record: unknown, existing: LinkRecord[], file: string): Problem[] {
  const index = existing.length;
  const wrapped = [...existing, record];
  const json: JsonFile = { data: wrapped, lineOf: () => undefined };
  const problems = schemaProblems('links', wrapped, file, json.lineOf);
  if (record === null || typeof record !== 'object') return problems;
  const seenLinks = new Map(existing.map((r, i) => [r.link, i] as const));
  const faultyFields = new Set(problems.map(({ field }) => field));
  return [...problems, ...recordProblems(record as Partial<LinkRecord>, index, file, json, seenLinks, faultyFields)];
}
