/**
 * Reading JSON straight from a body's bytes, for the ingest hot paths (json-batch.ts,
 * hec-batch.ts). A reader built on this accepts only what `JSON.parse` accepts and gives the values
 * it would give; whatever it does not read it refuses with `notHere`, and its caller then takes
 * the generic path (JSON.parse and the ingest rules), which gives the result or the error.
 *
 * Why a string read here is the string `JSON.parse` gives: a string is taken from its bytes only
 * when it holds no backslash (no escape) and no control character (invalid in JSON), and every
 * token boundary is an ASCII byte, so its bytes alone decode as they do within the whole body
 * (invalid UTF-8 becomes U+FFFD either way). Strings with escapes, arrays and objects go through
 * `JSON.parse` of their own text.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;

/** Thrown (never escapes a reader): "not read here, take the generic path". */
class NotHere extends Error {}
export const notHere = new NotHere('not read by the fast path');

/** Runs a reader; `undefined` when it refused the body. */
export function orGeneric<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (err === notHere) return undefined;
    throw err;
  }
}

/** A cursor over a body's bytes, and the JSON tokens the readers need. */
export class JsonBytes {
  p = 0;

  constructor(readonly b: Buffer) {}

  /** JSON whitespace (space, tab, LF, CR). */
  ws(): void {
    const b = this.b;
    let p = this.p;
    for (;;) {
      const c = b[p];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.p = p;
  }

  expect(c: number): void {
    if (this.b[this.p] !== c) throw notHere;
    this.p++;
  }

  /** A string without escapes or control characters, its `"` read: returns its end, and moves past the closing `"`. */
  plainString(): number {
    const b = this.b;
    const n = b.length;
    for (let p = this.p; p < n; p++) {
      const c = b[p];
      if (c === QUOTE) {
        this.p = p + 1;
        return p;
      }
      if (c < 0x20 || c === BACKSLASH) throw notHere;
    }
    throw notHere;
  }

  /**
   * A string, its `"` read: moves past the closing `"` and returns its end; `escaped` says
   * whether it holds a backslash (then only `JSON.parse` of its text tells its value and validity).
   * A control character is never valid in a string.
   */
  string(): { end: number; escaped: boolean } {
    const b = this.b;
    const n = b.length;
    let escaped = false;
    for (let p = this.p; p < n; p++) {
      const c = b[p];
      if (c === QUOTE) {
        this.p = p + 1;
        return { end: p, escaped };
      }
      if (c === BACKSLASH) {
        escaped = true;
        p++; // the escaped character, whatever it is (JSON.parse checks it)
      } else if (c < 0x20) throw notHere;
    }
    throw notHere;
  }

  /** A `"` opened string's value (its `"` read), as JSON.parse gives it. */
  stringValue(): string {
    const from = this.p;
    const { end, escaped } = this.string();
    return escaped ? (parse(this.b, from - 1, end + 1) as string) : this.b.toString('utf8', from, end);
  }

  /**
   * Any value at the cursor, as JSON.parse gives it; arrays and objects may nest `room` levels
   * (their own included) before the reader refuses them (too deep is for the generic path to say).
   */
  value(room: number): unknown {
    const b = this.b;
    const c = b[this.p];
    if (c === QUOTE) {
      this.p++;
      return this.stringValue();
    }
    if (c === LBRACKET || c === LBRACE) {
      const from = this.p;
      return parse(b, from, this.skipNested(room));
    }
    return this.scalar();
  }

  /** `true`, `false`, `null` or a number (JSON's grammar), as JSON.parse gives it. */
  scalar(): boolean | null | number {
    const b = this.b;
    const p = this.p;
    const c = b[p];
    if (c === 0x74 && b[p + 1] === 0x72 && b[p + 2] === 0x75 && b[p + 3] === 0x65) {
      this.p = p + 4;
      return true;
    }
    if (c === 0x66 && b[p + 1] === 0x61 && b[p + 2] === 0x6c && b[p + 3] === 0x73 && b[p + 4] === 0x65) {
      this.p = p + 5;
      return false;
    }
    if (c === 0x6e && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c) {
      this.p = p + 4;
      return null;
    }
    // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    let q = p;
    if (b[q] === 0x2d) q++;
    if (b[q] === 0x30) q++;
    else if (isDigit(b[q])) while (isDigit(b[q])) q++;
    else throw notHere;
    if (b[q] === 0x2e) {
      if (!isDigit(b[++q])) throw notHere;
      while (isDigit(b[q])) q++;
    }
    if (b[q] === 0x65 || b[q] === 0x45) {
      q++;
      if (b[q] === 0x2b || b[q] === 0x2d) q++;
      if (!isDigit(b[q])) throw notHere;
      while (isDigit(b[q])) q++;
    }
    this.p = q;
    // The same decimal text gives the same double in Number() as in JSON.parse.
    return Number(b.toString('latin1', p, q));
  }

  /**
   * Past the array or object at the cursor (its end returned), found by brackets outside strings
   * as jsonDeeperThan counts them; nesting more than `room` levels (its own included) is refused.
   * Whether it is valid JSON is for JSON.parse to say.
   */
  skipNested(room: number): number {
    const b = this.b;
    const n = b.length;
    let depth = 0;
    let p = this.p;
    while (p < n) {
      const c = b[p++];
      if (c === QUOTE) {
        for (;;) {
          if (p >= n) throw notHere;
          const s = b[p++];
          if (s === BACKSLASH) p++;
          else if (s === QUOTE) break;
        }
      } else if (c === LBRACKET || c === LBRACE) {
        if (++depth > room) throw notHere;
      } else if (c === RBRACKET || c === RBRACE) {
        if (--depth === 0) {
          this.p = p;
          return p;
        }
      }
    }
    throw notHere;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** JSON.parse of the bytes `b[from..to)`; invalid: notHere. */
function parse(b: Buffer, from: number, to: number): unknown {
  try {
    return JSON.parse(b.toString('utf8', from, to));
  } catch {
    throw notHere;
  }
}

/** Whether the bytes `b[from..to)` are the ASCII text `word`. */
export function bytesAre(b: Buffer, from: number, to: number, word: string): boolean {
  if (to - from !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (b[from + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Whether two ranges of `b` hold the same bytes (`prevFrom` < 0: no previous range). */
export function sameBytes(b: Buffer, from: number, to: number, prevFrom: number, prevTo: number): boolean {
  const n = to - from;
  if (prevFrom < 0 || n !== prevTo - prevFrom) return false;
  for (let i = 0; i < n; i++) if (b[from + i] !== b[prevFrom + i]) return false;
  return true;
}
