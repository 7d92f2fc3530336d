/** The import's progress line: on a terminal one updating line on stderr (and retries as notes on it); elsewhere nothing. */

export interface ProgressLine {
  show(text: string): void;
  /** A wait or retry: shown on the line, on a terminal. */
  note(text: string): void;
  done(): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  const terminal = stream.isTTY === true;
  let shown = false;
  let last = '';
  const write = (text: string) => {
    if (!terminal) return;
    const width = Math.max(20, (stream.columns ?? 100) - 1);
    stream.write(`\r\x1b[K${text.slice(0, width)}`);
    shown = true;
  };
  return {
    show(text) {
      last = text;
      write(text);
    },
    note(text) {
      write(`${last}${last ? ' · ' : ''}${text}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
