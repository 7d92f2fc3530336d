/**
 * Word matching loaded with /search/ (its script, src/components/SiteSearchScript.astro) instead
 * of with the first words, as tag pages load it. A shared link's words are then matched and
 * ranked, and their rows asked for, in the task that starts the page's search: waiting for
 * `import()` took a task of its own, which the browser's first frame came before (20–40 ms on the
 * bench's machine). The script imports this before the search, which finds the module as
 * `tagsiteWordMatch` (Searcher.wordMatcher). Word matching stays a file of its own
 * (src/integration/index.ts), which tag pages load only for words.
 */
import * as wordMatch from '../../search/word-match.ts';

(globalThis as { tagsiteWordMatch?: typeof wordMatch }).tagsiteWordMatch = wordMatch;
