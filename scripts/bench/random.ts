/** Seeded randomness for the benchmark corpus: the same seed always gives the same corpus. */

/** A small, fast PRNG (sfc32) seeded from a string or number through a string hash. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    // cyrb128-style mixing of the seed text into four 32-bit words.
    const text = String(seed);
    let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    this.a = h1 >>> 0;
    this.b = h2 >>> 0;
    this.c = h3 >>> 0;
    this.d = h4 >>> 0;
    for (let i = 0; i < 16; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.a >>>= 0; this.b >>>= 0; this.c >>>= 0; this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const result = (t + this.d) | 0;
    this.c = (this.c + result) | 0;
    return (result >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: `weights` need not sum to 1. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, weight] of items) total += weight;
    let at = this.next() * total;
    for (const [item, weight] of items) if ((at -= weight) < 0) return item;
    return items.at(-1)![0];
  }

  /** A normally distributed number (Box–Muller). */
  normal(mean = 0, deviation = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + deviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal number: long-tailed counts such as views. */
  logNormal(mu: number, sigma: number): number {
    return Math.exp(this.normal(mu, sigma));
  }

  /** A stable shuffle of a copy. */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/**
 * Draws ranks 0..size-1 with probability ∝ 1/(rank+offset)^exponent (Zipf's law, with
 * Mandelbrot's offset flattening the head: a few very common items, a long tail of rare ones), by
 * binary search over the cumulative weights.
 */
export class Zipf {
  private readonly cumulative: Float64Array;

  constructor(size: number, exponent: number, offset = 1) {
    this.cumulative = new Float64Array(size);
    let total = 0;
    for (let i = 0; i < size; i++) this.cumulative[i] = total += 1 / (i + offset) ** exponent;
  }

  get size(): number {
    return this.cumulative.length;
  }

  draw(random: Random): number {
    const target = random.next() * this.cumulative[this.cumulative.length - 1]!;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid]! > target) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
