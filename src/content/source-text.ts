/**
 * Reading a content file's bytes into text, with the checks every content file gets before it is
 * parsed: its size against a limit, UTF-8 (a bad byte is never silently turned into U+FFFD), and
 * no control characters (they would be written into pages and feeds, where XML forbids them).
 */
import { readFileSync, statSync } from 'node:fs';
import type { Problem } from './problems.ts';

/** C0 control characters other than tab, line feed and carriage return, and DEL. */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The offset of the first byte that is not part of valid UTF-8 (overlong forms and surrogates included), or -1. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let code: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, code] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, code] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, code] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** The 1-based line of a character offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 10) line++;
  return line;
}

/** `U+0007` for a character. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A control character in text: its problem (with its line), or undefined. */
export function controlCharacterProblem(text: string, file: string): Problem | undefined {
  const match = CONTROL_CHARACTER.exec(text);
  if (!match) return undefined;
  return { file, line: lineAt(text, match.index), field: '(file)', message: `holds the control character ${codePointName(match[0])}: remove it (only tab and line breaks are allowed)` };
}

/** The text of bytes that must be UTF-8 without control characters; a problem names the first bad byte. */
export function decodeSource(bytes: Uint8Array, file: string): string | Problem {
  const bad = invalidUtf8Offset(bytes);
  if (bad >= 0) {
    return { file, line: lineOfByte(bytes, bad), field: '(file)', message: `is not valid UTF-8 (byte offset ${bad}): save it as UTF-8` };
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  return controlCharacterProblem(text, file) ?? text;
}

/** What a failed read means, in words: the file is gone, unreadable, or a folder. */
export function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return `cannot be read (${code ?? (error as Error).message})`;
}

/**
 * Reads a content file as text: at most `maxBytes` (checked before reading, so a huge file costs
 * nothing), valid UTF-8, no control characters. `limit` names the limit in the message.
 */
export function readSourceText(path: string, file: string, maxBytes: number, limit: string): string | Problem {
  let bytes: Buffer;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) return { file, field: '(file)', message: `is ${size} bytes; at most ${maxBytes} allowed (${limit})` };
    bytes = readFileSync(path);
  } catch (error) {
    return { file, field: '(file)', message: readFailure(error) };
  }
  return decodeSource(bytes, file);
}
