/**
 * What a long build says while it works: one line per phase, and on a terminal one updating line
 * counting the pages rendered. A small site's build stays quiet, and a log (CI) gets the phase
 * lines only.
 */
import { buildStore } from './store.ts';

/** From this many topics a build tells its phases even when not on a terminal. */
const LONG_BUILD_TOPICS = 1000;

export interface Progress {
  phase(text: string): void;
  /** Starts the updating count of rendered pages (on a terminal). */
  countPages(): void;
  done(): void;
  /** A closing line, said as the phases are: by a long build, or on a terminal. */
  summary(text: string): void;
}

/** Called by every page's layout as it renders: the count the progress line shows. */
export function pageRendered(): void {
  const store = buildStore();
  if (store.reuse) store.rendered = (store.rendered ?? 0) + 1;
}

/** How many pages a build rendered: `byThread` of them by the page thread (./page-thread.ts), the others on the main thread. */
export function pagesRendered(main: number, byThread: number): string {
  const count = (pages: number) => pages.toLocaleString('en');
  return `${count(main + byThread)} pages rendered${byThread > 0 ? ` (${count(byThread)} by a second thread)` : ''}`;
}

/** `started`: when the build began (performance.now()), which the phase lines count from. */
export function buildProgress(topics: number, stream: NodeJS.WriteStream = process.stdout, started = performance.now()): Progress {
  const terminal = stream.isTTY === true;
  const speaks = terminal || topics >= LONG_BUILD_TOPICS;
  let timer: NodeJS.Timeout | undefined;
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const stopCounting = () => {
    if (!timer) return;
    clearInterval(timer);
    timer = undefined;
    stream.write('\r\x1b[K');
  };
  return {
    phase(text) {
      stopCounting();
      if (speaks) stream.write(`[tagsite ${seconds().padStart(7)}] ${text}\n`);
    },
    countPages() {
      buildStore().rendered = 0;
      if (!terminal) return;
      timer = setInterval(() => stream.write(`\r\x1b[K  ${(buildStore().rendered ?? 0).toLocaleString('en')} pages rendered`), 250);
      timer.unref();
    },
    done: stopCounting,
    summary(text) {
      stopCounting();
      if (speaks) stream.write(`${text}\n`);
    },
  };
}
