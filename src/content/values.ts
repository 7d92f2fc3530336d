/**
 * Values a parsed file may hold that no reader should take: a control character in a text (it would
 * reach pages and feeds) and a whole number beyond 2^53 (it would change when read). For front
 * matter, whose parser gives no offsets; JSON files are checked as they are parsed (json-file.ts).
 */
import type { Problem } from './problems.ts';
import { codePointName, CONTROL_CHARACTER } from './source-text.ts';
import { pointerToField } from './schema-validation.ts';

/** Every such value in `data`, one problem each, at the line `lineOf` gives its JSON pointer. */
export function valueProblems(data: unknown, file: string, lineOf: (pointer: string) => number | undefined): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: data, pointer: '' }];
  const add = (pointer: string, message: string) => problems.push({ file, line: lineOf(pointer), field: pointerToField(pointer), message });
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value === 'string') {
      const control = CONTROL_CHARACTER.exec(value);
      if (control) add(pointer, `holds the control character ${codePointName(control[0])}: remove it (only tab and line breaks are allowed)`);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
        add(pointer, `${value} is too large: whole numbers go up to ${Number.MAX_SAFE_INTEGER}`);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, pointer: `${pointer}/${i}` }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, pointer: `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
  }
  return problems.reverse();
}

/**
 * `data` (parsed front matter: strings, numbers, booleans, null, arrays and plain objects) with
 * every string copied out of the text it was parsed from. V8 keeps a string cut from a longer one
 * as a view of it, so a topic's title would otherwise hold its whole file in memory for as long as
 * the build holds the topic. Shorter strings are never views (V8's SlicedString::kMinLength), and
 * keys are V8's own copies.
 */
export function ownStrings<T>(data: T): T {
  if (typeof data === 'string') return (data.length < 13 ? data : JSON.parse(JSON.stringify(data))) as T;
  if (Array.isArray(data)) return data.map(ownStrings) as T;
  if (typeof data === 'object' && data !== null) return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, ownStrings(value)])) as T;
  return data;
}
