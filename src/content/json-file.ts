import { existsSync, readFileSync } from 'node:fs';
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Problem } from './problems.ts';

/** A parsed JSON file that can tell the line of any JSON pointer in it. */
export interface JsonFile {
  data: unknown;
  lineOf: (pointer: string) => number | undefined;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses strict JSON (no comments, no trailing commas); a syntax error is a problem with its line. */
export function parseJsonFile(source: string, file: string): JsonFile | Problem {
  // Editors on Windows often save a byte-order mark; it is not part of the JSON (and changes no line).
  const text = source.replace(/^\uFEFF/, '');
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    return {
      file,
      line: first ? lineAt(text, first.offset) : undefined,
      field: '(file)',
      message: first ? `not valid JSON: ${printParseErrorCode(first.error)}` : 'the file is empty',
    };
  }
  const data: unknown = JSON.parse(text);
  return {
    data,
    lineOf(pointer: string) {
      const path = pointer
        .split('/')
        .slice(1)
        .map((key) => (/^\d+$/.test(key) ? Number(key) : key.replace(/~1/g, '/').replace(/~0/g, '~')));
      // A missing field has no node: fall back to its nearest existing parent.
      for (let depth = path.length; depth >= 0; depth--) {
        const node = findNodeAtLocation(tree, path.slice(0, depth));
        if (node) return lineAt(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
      }
      return undefined;
    },
  };
}

/** A JSON file read from disk, with the text it was parsed from (add-link appends to that text). */
export interface JsonFileOnDisk extends JsonFile {
  text: string;
  /** False when the file was missing and `ifMissing.text` was read in its place. */
  exists: boolean;
}

/** What a missing file means to the caller: a problem with this message, or this text read in its place. */
export type IfMissing = { problem: string } | { text: string };

/**
 * Reads one content JSON file: the one way the loader and the commands read them. `file` is the
 * name problems give it. A missing file is what `ifMissing` says; without it, undefined (the file
 * is optional).
 */
export function readJsonFile(path: string, file: string, ifMissing: IfMissing): JsonFileOnDisk | Problem;
export function readJsonFile(path: string, file: string): JsonFileOnDisk | Problem | undefined;
export function readJsonFile(path: string, file: string, ifMissing?: IfMissing): JsonFileOnDisk | Problem | undefined {
  const exists = existsSync(path);
  let text: string;
  if (exists) text = readFileSync(path, 'utf8');
  else if (!ifMissing) return undefined;
  else if ('problem' in ifMissing) return { file, field: '(file)', message: ifMissing.problem };
  else text = ifMissing.text;
  const parsed = parseJsonFile(text, file);
  return isProblem(parsed) ? parsed : { ...parsed, text, exists };
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'field' in value && 'message' in value && 'file' in value;
}
