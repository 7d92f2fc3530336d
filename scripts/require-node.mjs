// Runs before every npm script, on whatever Node the user has: plain JavaScript that even an old
// Node reads, so an old Node gets one line instead of `bad option: --experimental-strip-types`.
import { pathToFileURL } from 'node:url';

export const REQUIRED = [22, 12];

/** The one line for a Node older than 22.12, else undefined. */
export function nodeVersionProblem(found) {
  const [major, minor] = found.replace(/^v/, '').split('.').map(Number);
  if (major > REQUIRED[0] || (major === REQUIRED[0] && minor >= REQUIRED[1])) return undefined;
  return `node: version: tagsite needs Node.js >= ${REQUIRED.join('.')}, this is ${found.replace(/^v?/, 'v')}; README.md "Set-up" shows how to get a current one`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
