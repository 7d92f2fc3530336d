import type { Member, Members } from './schema-types.ts';
import type { JsonFile } from './json-file.ts';
import { schemaProblems } from './schema-validation.ts';
import { memberKey } from '../model/members.ts';
import { PUBLISHABLE_URL } from '../model/workflow-list.ts';
import type { Problem } from './problems.ts';
import { faultyRecords } from './links.ts';
import { readAliases, type DeclaredAlias } from './aliases.ts';

export type { Member };

/** Validates members.json; names are unique by memberKey (case-insensitively, as the author filter compares them); websites are publishable. */
export function readMembers(json: JsonFile, file: string): { members: Member[]; problems: Problem[]; aliases: DeclaredAlias[] } {
  const problems = schemaProblems('members', json.data, file, json.lineOf);
  const aliases: DeclaredAlias[] = [];
  if (!Array.isArray(json.data)) return { members: [], problems, aliases };
  // The rules beyond the schema run on every record the schema found no fault in, so one bad record hides nothing.
  const faulty = faultyRecords(problems);
  const schemaFaults = problems.length;
  const members = json.data as Members;
  const seen = new Map<string, number>();
  members.forEach((member, i) => {
    if (faulty.has(i)) return;
    const key = memberKey(member.name);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({
        file,
        line: json.lineOf(`/${i}/name`),
        field: `[${i}].name`,
        message: `duplicate member name '${member.name}' (already at [${first}])`,
      });
    } else {
      seen.set(key, i);
      aliases.push(...readAliases(member.aliases, { file, field: `[${i}].aliases`, pointer: `/${i}/aliases`, lineOf: json.lineOf }, { kind: 'member', name: member.name }, problems));
    }
    // The schema accepts any absolute URL; a website is published (workflow lists, member pages), so `http://` alone is not one.
    if (member.website !== undefined && !PUBLISHABLE_URL.test(member.website)) {
      problems.push({
        file,
        line: json.lineOf(`/${i}/website`),
        field: `[${i}].website`,
        message: `${JSON.stringify(member.website)} cannot be published: give an http or https address with a host, such as https://example.org/, or leave the field out`,
      });
    }
  });
  // The aliases of the records without a fault are checked against the others' even when one has a fault.
  return { members: schemaFaults > 0 ? [] : members, problems, aliases };
}
