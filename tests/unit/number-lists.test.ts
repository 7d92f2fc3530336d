// The typed lists the word postings are kept in (src/search/number-lists.ts): they grow in place
// within what they reserve, by a copy past it, and keep every number pushed either way.
import { describe, expect, it } from 'vitest';
import { IntList, PlaceBytes, readPlaces } from '../../src/search/number-lists.ts';

describe('number lists', () => {
  it('keep what is pushed as they grow, in place within their reservation and by a copy past it', () => {
    for (const reserve of [undefined, 256]) {
      const ints = new IntList(4, reserve);
      for (let i = 0; i < 5000; i++) ints.push(i * 7 - 3);
      ints.append(Int32Array.of(-1, -2));
      expect(ints.length).toBe(5002);
      expect([...ints.values.subarray(0, 3)]).toEqual([-3, 4, 11]);
      expect(ints.values[4999]).toBe(4999 * 7 - 3);
      expect([...ints.values.subarray(5000)]).toEqual([-1, -2]);
    }
  });

  it('grow in place while they can: a view of what was pushed stays as it was', () => {
    const bytes = new PlaceBytes(16);
    for (let i = 0; i < 10; i++) bytes.pushNumber(i * 100);
    const first = bytes.values;
    for (let i = 0; i < 100_000; i++) bytes.pushNumber(i);
    const read = new Int32Array(10);
    expect(readPlaces(first, 0, first.length, read, 0)).toBe(10);
    expect([...read]).toEqual(Array.from({ length: 10 }, (_, i) => i * 100));
    const past = new PlaceBytes(16, 64);
    for (let i = 0; i < 1000; i++) past.pushNumber(i);
    const all = new Int32Array(1000);
    expect(readPlaces(past.values, 0, past.length, all, 0)).toBe(1000);
    expect(all[999]).toBe(999);
  });
});
