import { existsSync } from 'node:fs';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Problem } from './problems.ts';
import { DEFAULT_LIMITS, limitName, type Limits } from './limits.ts';
import { codePointName, CONTROL_CHARACTER, lineAt, readSourceText } from './source-text.ts';
import { pointerToField } from './schema-validation.ts';

/** A parsed JSON file that can tell the line of any JSON pointer in it. */
export interface JsonFile {
  data: unknown;
  lineOf: (pointer: string) => number | undefined;
}

/** The limits a JSON data file is read with. */
export type JsonLimits = Pick<Limits, 'dataFileBytes' | 'dataFileRecords' | 'nestingDepth'>;

/** Where lists and objects nest deeper than `max` (outside strings), or -1. Found before parsing: the parser recurses. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/**
 * What JSON allows but a content file must not hold: a key twice in one object (readers disagree
 * on which counts), a whole number beyond 2^53 (it would change when read), a control character in
 * a string. Also counts the records: the objects below the top level. Returns the first problem.
 */
function valueProblem(tree: Node, text: string, file: string, maxRecords: number): Problem | undefined {
  let records = 0;
  const stack: Array<{ node: Node; pointer: string }> = [{ node: tree, pointer: '' }];
  const at = (node: Node, pointer: string, message: string): Problem => ({ file, line: lineAt(text, node.offset), field: pointerToField(pointer), message });
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (node.type === 'object') {
      if (pointer !== '' && ++records > maxRecords) {
        return { file, line: lineAt(text, node.offset), field: '(file)', message: `has more than ${maxRecords} records (${limitName('dataFileRecords')})` };
      }
      const seen = new Map<string, Node>();
      for (const property of node.children ?? []) {
        const [keyNode, value] = property.children ?? [];
        if (!keyNode || !value) continue;
        const key = String(keyNode.value);
        const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const first = seen.get(key);
        if (first) return at(keyNode, child, `the key ${JSON.stringify(key)} appears twice in one object (first on line ${lineAt(text, first.offset)}): keep one`);
        seen.set(key, keyNode);
        const control = CONTROL_CHARACTER.exec(key);
        if (control) return at(keyNode, child, `the key holds the control character ${codePointName(control[0])}: remove it`);
        stack.push({ node: value, pointer: child });
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => stack.push({ node: child, pointer: `${pointer}/${i}` }));
    } else if (node.type === 'number') {
      const value = node.value as number;
      if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
        return at(node, pointer, `${text.slice(node.offset, node.offset + node.length)} is too large: whole numbers go up to ${Number.MAX_SAFE_INTEGER}`);
      }
    } else if (node.type === 'string') {
      const control = CONTROL_CHARACTER.exec(node.value as string);
      if (control) return at(node, pointer, `holds the control character ${codePointName(control[0])}: remove it (only tab and line breaks are allowed)`);
    }
  }
  return undefined;
}

/**
 * Parses strict JSON (no comments, no trailing commas); a syntax error, nesting deeper than the
 * limit, too many records or a value of valueProblem is a problem with its line (the first one).
 */
export function parseJsonFile(source: string, file: string, limits: JsonLimits = DEFAULT_LIMITS): JsonFile | Problem {
  // Editors on Windows often save a byte-order mark; it is not part of the JSON (and changes no line).
  const text = source.replace(/^\uFEFF/, '');
  const deep = tooDeepAt(text, limits.nestingDepth);
  if (deep >= 0) {
    return { file, line: lineAt(text, deep), field: '(file)', message: `lists and objects nest more than ${limits.nestingDepth} levels deep (${limitName('nestingDepth')})` };
  }
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
  const problem = valueProblem(tree, text, file, limits.dataFileRecords);
  if (problem) return problem;
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
 * is optional). The file is read within `limits` (size, nesting, records), as UTF-8.
 */
export function readJsonFile(path: string, file: string, ifMissing: IfMissing, limits?: JsonLimits): JsonFileOnDisk | Problem;
export function readJsonFile(path: string, file: string, ifMissing?: undefined, limits?: JsonLimits): JsonFileOnDisk | Problem | undefined;
export function readJsonFile(path: string, file: string, ifMissing?: IfMissing, limits: JsonLimits = DEFAULT_LIMITS): JsonFileOnDisk | Problem | undefined {
  const exists = existsSync(path);
  let text: string | Problem;
  if (exists) text = readSourceText(path, file, limits.dataFileBytes, limitName('dataFileBytes'));
  else if (!ifMissing) return undefined;
  else if ('problem' in ifMissing) return { file, field: '(file)', message: ifMissing.problem };
  else text = ifMissing.text;
  if (isProblem(text)) return text;
  const parsed = parseJsonFile(text, file, limits);
  return isProblem(parsed) ? parsed : { ...parsed, text, exists };
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'field' in value && 'message' in value && 'file' in value;
}
