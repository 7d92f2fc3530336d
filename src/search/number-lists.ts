// The typed lists a big site's word postings are kept in (./word-postings.ts): they grow as they are
// pushed to, without a JS number per element, and give their memory back at once.

/** The typed arrays the postings are kept in. */
type Numbers = Int32Array | Uint8Array | Float64Array;

/**
 * How much a list reserves to grow into (4 GiB): address space, not memory, until it is used. A
 * list that grows into its reservation is not copied: a copy held the list twice for a moment, and
 * the postings of 1,000,000 topics are some 0.6 GB.
 */
const RESERVED_BYTES = 2 ** 32;

/** A buffer of `bytes` that can grow in place up to `reserve` bytes; one that cannot where the address space is not to be had (it grows by copies then). */
function growable(bytes: number, reserve: number): ArrayBuffer {
  try {
    return new ArrayBuffer(bytes, { maxByteLength: Math.max(bytes, reserve) });
  } catch {
    return new ArrayBuffer(bytes);
  }
}

/** A typed array that grows as it is pushed to: a big site's postings without a JS number per element. */
class GrowingList<T extends Numbers> {
  /** A view of the whole buffer, which follows it as it grows. */
  items: T;
  length = 0;
  private buffer: ArrayBuffer;
  private readonly view: (buffer: ArrayBuffer) => T;
  private readonly bytesEach: number;

  /** Room for `capacity` values before it grows, and `reserve` bytes to grow into without a copy. */
  constructor(view: (buffer: ArrayBuffer) => T, bytesEach: number, capacity = 1024, reserve = RESERVED_BYTES) {
    this.view = view;
    this.bytesEach = bytesEach;
    this.buffer = growable(Math.max(capacity, 16) * bytesEach, reserve);
    this.items = view(this.buffer);
  }

  push(value: number): void {
    if (this.length === this.items.length) this.grow(this.length + 1);
    this.items[this.length++] = value;
  }

  /** Pushes `values` whole. */
  append(values: T): void {
    if (this.length + values.length > this.items.length) this.grow(this.length + values.length);
    this.items.set(values, this.length);
    this.length += values.length;
  }

  /** The pushed values, without a copy. */
  get values(): T {
    return this.items.subarray(0, this.length) as T;
  }

  protected grow(needed: number): void {
    let size = this.items.length * 2;
    while (size < needed) size *= 2;
    const bytes = size * this.bytesEach;
    if (bytes <= this.buffer.maxByteLength) {
      this.buffer.resize(bytes);
      return;
    }
    // Past its reservation: a buffer reserving twice as much, and a copy.
    const grown = growable(bytes, 2 * bytes);
    const items = this.view(grown);
    items.set(this.values);
    letGo(this.items);
    this.buffer = grown;
    this.items = items;
  }
}

export class IntList extends GrowingList<Int32Array> {
  constructor(capacity?: number, reserve?: number) {
    super((buffer) => new Int32Array(buffer), 4, capacity, reserve);
  }
}

/**
 * The postings' numbers, each in as few bytes as it needs (LEB128: seven bits a byte, the lowest
 * first, the high bit set on every byte of a number but its last): almost all places are below
 * 128, and a byte each instead of four is some 0.9 GB less at 1,000,000 topics (330 million
 * numbers); most terms' ids take one or two bytes.
 */
export class PlaceBytes extends GrowingList<Uint8Array> {
  constructor(capacity?: number, reserve?: number) {
    super((buffer) => new Uint8Array(buffer), 1, capacity, reserve);
  }

  /** Pushes `value` (a whole number below 2³¹) in its bytes. */
  pushNumber(value: number): void {
    if (this.length + 5 > this.items.length) this.grow(this.length + 5);
    this.length = writeNumber(this.items, this.length, value);
  }
}

/**
 * How many numbers the posting whose bytes begin at `start` holds (../search/word-postings.ts
 * PostingsTable): its first says how many post places follow and whether a title count comes
 * next. -1 where the bytes end before that is said.
 */
function postingNumbers(bytes: Uint8Array, start: number): number {
  let i = start;
  let count = 0;
  for (let n = 0; n < 2; n++) {
    let value = 0;
    let byte = 0x80;
    for (let shift = 0; byte >= 0x80; shift += 7) {
      if (i >= bytes.length) return -1;
      byte = bytes[i++]!;
      value |= (byte & 0x7f) << shift;
    }
    if (n === 1) return count + 1 + value;
    count = 1 + (value >>> 1);
    if ((value & 1) === 0) return count;
  }
  return count;
}

/** Where the `count` numbers from `start` end; -1 where the bytes end first. */
function afterNumbers(bytes: Uint8Array, start: number, count: number): number {
  let i = start;
  for (let left = count; left > 0; i++) {
    if (i >= bytes.length) return -1;
    if (bytes[i]! < 0x80) left--;
  }
  return i;
}

/**
 * Reads postings one after another (../search/word-postings.ts PostingsTable): each one's term
 * id, then as many numbers as its first after that says it has (postingNumbers).
 */
export class PostingCursor {
  /** The posting's term id. */
  term = 0;
  /** Where its numbers after the term's begin (its counts, then its places), how many they are, and where it ends: the next one's start. */
  from = 0;
  numbers = 0;
  end: number;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array, start = 0) {
    this.bytes = bytes;
    this.end = start;
  }

  /** Moves to the next posting; false where the bytes end before it does (the cursor is then of no use). */
  next(): boolean {
    const { bytes } = this;
    this.term = numberAt(bytes, this.end);
    this.from = afterNumbers(bytes, this.end, 1);
    this.numbers = this.from < 0 ? -1 : postingNumbers(bytes, this.from);
    this.end = this.numbers < 0 ? -1 : afterNumbers(bytes, this.from, this.numbers);
    return this.end >= 0;
  }
}

/** The number whose bytes begin at `at`; -1 where the bytes end before it does. */
function numberAt(bytes: Uint8Array, at: number): number {
  let value = 0;
  let byte = 0x80;
  for (let i = at, shift = 0; byte >= 0x80; shift += 7) {
    if (i >= bytes.length) return -1;
    byte = bytes[i++]!;
    value |= (byte & 0x7f) << shift;
  }
  return value;
}

/** Writes `value` (a whole number below 2³¹) in its bytes at `at`; returns where it ends. */
export function writeNumber(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

/** Reads the places' numbers from `from` up to `to` into `into` from `at`; returns where they end there. */
export function readPlaces(bytes: Uint8Array, from: number, to: number, into: Int32Array, at: number): number {
  for (let i = from; i < to; ) {
    let byte = bytes[i++]!;
    let value = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[i++]!;
      value |= (byte & 0x7f) << shift;
    }
    into[at++] = value;
  }
  return at;
}

/**
 * Gives an array's memory back now, not when a full collection finds it unused: big lists are
 * memory outside V8's heap, which a thread that allocates little in it keeps for minutes (the
 * index thread kept the postings of 100,000 topics, 0.3 GB, to its end). The array, and every
 * other view of its memory, is empty from then on.
 */
export function letGo(array: Numbers): void {
  const { buffer } = array;
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
}
