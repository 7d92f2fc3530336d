import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { keyText } from '../../src/build/key-text.ts';

/** The props as JSON.stringify writes them with every topic replaced by its digest: what keyText must write, from a copy. */
function copied(topics: ReadonlyMap<object, string>, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const digest = topics.get(value);
  if (digest !== undefined) return digest;
  if (Array.isArray(value)) return value.map((inner) => copied(topics, inner));
  if (value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, copied(topics, inner)]));
}

describe('keyText', () => {
  it('writes what JSON.stringify writes of the props with each topic as its digest, for any props', () => {
    const topics = ['a', 'b', 'c'].map((slug) => ({ slug, title: `Title ${slug}`, tags: [slug] }));
    const known = new Map<object, string>(topics.map((topic, i) => [topic, `digest-${i}`]));
    const { any } = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(...topics),
        fc.string(),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }),
        fc.array(tie('any')),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('0', '10', '__proto__', 'a"b')), tie('any')),
      ),
    }));
    fc.assert(
      fc.property(any, (props) => {
        expect(keyText(known)(props)).toBe(JSON.stringify(copied(known, props)) ?? '');
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart props that differ in a topic, a string or a number, and writes the same props alike', () => {
    const a = { slug: 'a' };
    const b = { slug: 'b' };
    const text = keyText(new Map<object, string>([[a, 'digest-a'], [b, 'digest-b']]));
    expect(text({ topics: [a], page: 1 })).toBe('{"topics":["digest-a"],"page":1}');
    expect(text({ topics: [b], page: 1 })).not.toBe(text({ topics: [a], page: 1 }));
    expect(text({ topics: [a], page: 2 })).not.toBe(text({ topics: [a], page: 1 }));
    expect(text({ tag: 'x"y', skip: undefined, when: new Date(Date.UTC(2026, 0, 2)) })).toBe('{"tag":"x\\"y","when":"2026-01-02T00:00:00.000Z"}');
  });
});
