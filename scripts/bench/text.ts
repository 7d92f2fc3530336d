/** Made-up but realistic text for the benchmark corpus: titles, Markdown bodies, rare words. */
import { Random, Zipf } from './random.ts';
import { COMMON, GENERAL, SYLLABLES, TECHNICAL } from './vocabulary.ts';

/** A rare word, the same for the same number in every corpus: made-up jargon, names, identifiers. */
export function rareWord(n: number): string {
  let word = rareWords.get(n);
  if (word === undefined) rareWords.set(n, (word = makeRareWord(n)));
  return word;
}

const rareWords = new Map<number, string>();

function makeRareWord(n: number): string {
  const random = new Random(`rare-${n}`);
  const parts = random.int(2, 4);
  let word = '';
  for (let i = 0; i < parts; i++) word += random.pick(SYLLABLES);
  // Some rare words are identifiers (versions, error codes, file stems) as forum posts have.
  if (random.chance(0.12)) word += String(random.int(2, 999));
  return word;
}

/** Draws words for titles and bodies, with a vocabulary that grows with the corpus. */
export class TextMaker {
  private readonly random: Random;
  private readonly common = new Zipf(COMMON.length, 1.0);
  private readonly general = new Zipf(GENERAL.length, 0.8);
  private readonly technical = new Zipf(TECHNICAL.length, 0.9);
  private readonly rare: Zipf;

  /** `rareWords`: size of the long tail (about the distinct words a real corpus of this size has). */
  constructor(random: Random, rareWords: number) {
    this.random = random;
    this.rare = new Zipf(rareWords, 1.0);
  }

  /** One word of running text. */
  word(): string {
    const r = this.random.next();
    if (r < 0.46) return COMMON[this.common.draw(this.random)]!;
    if (r < 0.74) return GENERAL[this.general.draw(this.random)]!;
    if (r < 0.92) return TECHNICAL[this.technical.draw(this.random)]!;
    return rareWord(this.rare.draw(this.random));
  }

  /** A content word (no "the", "and" …): titles are made mostly of these. */
  contentWord(): string {
    const r = this.random.next();
    if (r < 0.45) return TECHNICAL[this.technical.draw(this.random)]!;
    if (r < 0.85) return GENERAL[this.general.draw(this.random)]!;
    return rareWord(this.rare.draw(this.random));
  }

  title(): string {
    const w = () => this.contentWord();
    const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const templates: Array<() => string> = [
      () => `How do I ${w()} a ${w()} with ${w()}?`,
      () => `${cap(w())} ${w()} not working after the ${w()} update`,
      () => `Share: ${cap(w())} ${w()} workflow for ${w()} ${w()}`,
      () => `${cap(w())} to ${w()}: ${w()} ${w()} in one step`,
      () => `Is there a way to ${w()} ${w()} ${w()} from ${w()}?`,
      () => `[Idea] ${cap(w())} ${w()} for the ${w()} action`,
      () => `${cap(w())} ${w()} and ${w()} ${w()}`,
      () => `Why does ${w()} ${w()} ${w()} when ${w()} is ${w()}?`,
    ];
    return this.random.pick(templates)();
  }

  private sentence(length: number): string {
    const out: string[] = [];
    for (let i = 0; i < length; i++) {
      let word = this.word();
      const r = this.random.next();
      if (r < 0.025) word = `\`${word}.${this.contentWord()}\``;
      else if (r < 0.04) word = `**${word}**`;
      else if (r < 0.05) word = `[${word} ${this.contentWord()}](https://docs.example.org/${this.contentWord()}/${word})`;
      out.push(word);
    }
    out[0] = out[0]!.charAt(0).toUpperCase() + out[0]!.slice(1);
    return `${out.join(' ')}${this.random.chance(0.15) ? '?' : '.'}`;
  }

  /** A Markdown first post of about `words` words: paragraphs, sometimes a list or a code block. */
  body(words: number): string {
    const blocks: string[] = [];
    let count = 0;
    const sentence = () => {
      const length = this.random.int(6, 18);
      count += length;
      return this.sentence(length);
    };
    while (count < words) {
      const r = this.random.next();
      if (r < 0.1 && blocks.length > 0) {
        blocks.push(Array.from({ length: this.random.int(2, 4) }, () => `- ${sentence()}`).join('\n'));
      } else if (r < 0.16 && blocks.length > 0) {
        const lines = Array.from({ length: this.random.int(1, 4) }, () => `${this.contentWord()}("${this.contentWord()}", ${this.random.int(0, 99)})`);
        blocks.push(`\`\`\`\n${lines.join('\n')}\n\`\`\``);
        count += lines.length * 2;
      } else {
        blocks.push(Array.from({ length: this.random.int(2, 4) }, sentence).join(' '));
      }
    }
    return blocks.join('\n\n');
  }
}
