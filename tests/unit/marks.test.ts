// Which words of a result's title or excerpt are marked (src/client/search/marks.ts).
import { describe, expect, it } from 'vitest';
import { markedSpans } from '../../src/client/search/marks.ts';
import { foldWord } from '../../src/search/words.ts';

const marked = (text: string, marks: string[]) => markedSpans(text, new Set(marks)).map(([start, end]) => text.slice(start, end));

describe('marked words', () => {
  it('are the words whose folded form was matched, whatever their case or accents', () => {
    expect(marked('JSON to json, not jsonpath', ['json'])).toEqual(['JSON', 'json']);
    expect(marked('Über das Café: uber cafe', ['uber', 'cafe'])).toEqual(['Über', 'Café', 'uber', 'cafe']);
    expect(marked('Ｆｕｌｌ width and the ﬁle ligature', ['full', 'file'])).toEqual(['Ｆｕｌｌ', 'ﬁle']);
    expect(marked('C++ and C# beside c', ['c++', 'c#'])).toEqual(['C++', 'C#']);
    expect(marked('nothing here', [])).toEqual([]);
  });

  it('agree with the tokenizer on every word of a mixed text', () => {
    const text = 'Ångström naïve ÉCOLE straße Ǆemal workflow Workflows';
    const words = text.split(' ');
    for (const word of words) expect(marked(text, [foldWord(word)]), word).toContain(word);
  });
});
