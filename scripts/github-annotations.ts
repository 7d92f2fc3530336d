/**
 * `npm run validate 2>&1 | node scripts/github-annotations.ts`: copies the output through, with every
 * problem line as a GitHub Actions `::error file=…,line=…::…` annotation (used by .github/workflows/validate.yml).
 */
import { annotate } from '../src/cli/github-annotations.ts';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(annotate(input));
