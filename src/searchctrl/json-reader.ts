/**
 * A pull reader of one JSON text arriving in chunks, for documents too large to parse whole
 * (an imported `result.json` of a million rows): the caller walks the structure it expects
 * (`open`, `key`, `next`) and takes each small value whole as raw bytes (`raw`, then
 * JSON.parse), so memory holds one chunk and one value, never the document. Syntax inside a
 * value taken raw is checked by the caller's JSON.parse; the structure around it here.
 */
export class JsonSyntaxError extends Error {}

const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Inside a string, from `i`: where the scan stops (the next quote, or the end of the chunk) and
 * whether that quote ends the string. `carried`: backslashes that ended the previous chunk inside
 * the string; an odd run escapes the quote after it. `backslashes` is what to carry on.
 */
function scanString(b: Buffer, i: number, carried: number): { stop: number; ends: boolean; backslashes: number } {
  const q = b.indexOf(QUOTE, i);
  const stop = q < 0 ? b.length : q;
  let k = stop - 1;
  while (k >= i && b[k] === BACKSLASH) k--;
  const run = stop - 1 - k + (k < i ? carried : 0);
  if (q < 0) return { stop, ends: false, backslashes: run };
  return { stop, ends: run % 2 === 0, backslashes: 0 };
}

export class JsonReader {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private done = false;
  /** Bytes consumed before `buf`. */
  private offset = 0;
  /** `elements`: the last batch ended at a comma; the array's bracket was taken with the last batch. */
  private cutAtComma = false;
  private closed = false;

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  static of(source: AsyncIterable<Buffer>): JsonReader {
    return new JsonReader(source[Symbol.asyncIterator]());
  }

  /** Position in the text (for messages). */
  get at(): number {
    return this.offset + this.pos;
  }

  /** The next byte that is not whitespace, without taking it; -1 at the end. */
  async peek(): Promise<number> {
    for (;;) {
      while (this.pos < this.buf.length && WS[this.buf[this.pos]]) this.pos++;
      if (this.pos < this.buf.length) return this.buf[this.pos];
      if (!(await this.refill())) return -1;
    }
  }

  /** Takes the byte `c` (after whitespace) or throws. */
  async expect(c: string): Promise<void> {
    if ((await this.peek()) !== c.charCodeAt(0)) throw new JsonSyntaxError(`expected "${c}" at byte ${this.at}`);
    this.pos++;
  }

  /** Enters an object or array (`{` or `[`); false when the value is something else (nothing taken). */
  async open(c: '{' | '['): Promise<boolean> {
    if ((await this.peek()) !== c.charCodeAt(0)) return false;
    this.pos++;
    return true;
  }

  /**
   * After `open` or an element: true when another element (or member) follows (its comma taken),
   * false at the closing bracket (taken).
   */
  async next(close: '}' | ']', first: boolean): Promise<boolean> {
    const c = await this.peek();
    if (c === close.charCodeAt(0)) {
      this.pos++;
      return false;
    }
    if (!first) await this.expect(',');
    return true;
  }

  /** An object member's name and its colon (names are short: at most `max` bytes). */
  async key(max = 4096): Promise<string> {
    if ((await this.peek()) !== QUOTE) throw new JsonSyntaxError(`expected a member name at byte ${this.at}`);
    const name = JSON.parse((await this.raw(max)).toString('utf8')) as unknown;
    await this.expect(':');
    return name as string;
  }

  /** The bytes of the next value, whole (at most `max` of them, else `tooLarge(max)` is thrown). */
  async raw(max: number, tooLarge: (max: number) => Error = (m) => new JsonSyntaxError(`a value is longer than ${m} bytes`)): Promise<Buffer> {
    return (await this.scan(true, max, tooLarge))!;
  }

  /**
   * Inside an array (after `open('[')`): the text of its next elements, whole and with the
   * commas between them, about `batchBytes` of it (at least one element), for one
   * `JSON.parse('[' + text + ']')`; null once the closing bracket is taken. An element longer
   * than `maxElement` throws `tooLarge(maxElement)`. Syntax inside the text is the parse's to check.
   */
  async elements(batchBytes: number, maxElement: number, tooLarge: (max: number) => Error): Promise<Buffer | null> {
    if (this.closed) {
      this.closed = false;
      return null;
    }
    const parts: Buffer[] = [];
    let length = 0;
    let element = 0;
    let depth = 0;
    let inString = false;
    let backslashes = 0;
    for (;;) {
      const b = this.buf;
      let i = this.pos;
      let end = -1;
      let closed = false;
      while (i < b.length) {
        const c = b[i];
        if (inString) {
          const str = scanString(b, i, backslashes);
          element += str.stop - i;
          backslashes = str.backslashes;
          if (str.stop === b.length) {
            i = b.length;
            continue;
          }
          element++;
          i = str.stop + 1;
          if (str.ends) inString = false;
          continue;
        }
        if (c === QUOTE) {
          inString = true;
          backslashes = 0;
        } else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          if (depth === 0) {
            if (c === 0x7d) throw new JsonSyntaxError(`unexpected "}" at byte ${this.offset + i}`);
            end = i;
            closed = true;
            break;
          }
          depth--;
        } else if (c === 0x2c && depth === 0) {
          if (element > maxElement) throw tooLarge(maxElement);
          element = -1;
          if (length + (i - this.pos) >= batchBytes) {
            end = i;
            break;
          }
        }
        element++;
        i++;
      }
      if (element > maxElement) throw tooLarge(maxElement);
      const stop = end < 0 ? b.length : end;
      length += stop - this.pos;
      parts.push(b.subarray(this.pos, stop));
      if (end >= 0) {
        this.pos = end + 1; // the comma or the closing bracket
        const text = parts.length === 1 ? parts[0] : Buffer.concat(parts);
        const empty = !text.some((x) => !WS[x]);
        if (!closed) {
          if (empty) throw new JsonSyntaxError(`an array element is missing at byte ${this.at}`);
          this.cutAtComma = true;
          return text;
        }
        // "[1,]": a comma before the bracket with nothing after it.
        if (empty && this.cutAtComma) throw new JsonSyntaxError(`an array element is missing at byte ${this.at}`);
        this.cutAtComma = false;
        if (empty) return null;
        this.closed = true;
        return text;
      }
      this.pos = stop;
      if (!(await this.refill())) throw new JsonSyntaxError('unexpected end of the text');
    }
  }

  /** Skips the next value (any size), keeping nothing of it. */
  async skip(): Promise<void> {
    await this.scan(false, Infinity, () => new JsonSyntaxError('unreachable'));
  }

  private async scan(keep: boolean, max: number, tooLarge: (max: number) => Error): Promise<Buffer | undefined> {
    if ((await this.peek()) < 0) throw new JsonSyntaxError('unexpected end of the text');
    const parts: Buffer[] = [];
    let length = 0;
    let depth = 0;
    let inString = false;
    /** Backslashes that ended the last chunk inside a string (an odd run escapes the next quote). */
    let backslashes = 0;
    let started = false;
    for (;;) {
      const b = this.buf;
      let i = this.pos;
      let end = -1;
      while (i < b.length) {
        const c = b[i];
        if (inString) {
          const str = scanString(b, i, backslashes);
          backslashes = str.backslashes;
          if (str.stop === b.length) {
            i = b.length;
            continue;
          }
          i = str.stop + 1;
          if (!str.ends) continue;
          inString = false;
          if (depth === 0) {
            end = i;
            break;
          }
          continue;
        } else if (c === QUOTE) {
          inString = true;
          backslashes = 0;
          started = true;
        } else if (c === 0x7b || c === 0x5b) {
          depth++;
          started = true;
        } else if (c === 0x7d || c === 0x5d) {
          if (depth === 0) {
            end = i; // a scalar ends at its container's close
            break;
          }
          depth--;
          if (depth === 0) {
            end = i + 1;
            break;
          }
        } else if (depth === 0 && (c === 0x2c || WS[c])) {
          if (started) {
            end = i; // a scalar ends at a comma or whitespace
            break;
          }
        } else started = true;
        i++;
      }
      const stop = end < 0 ? b.length : end;
      length += stop - this.pos;
      if (length > max) throw tooLarge(max);
      if (keep) parts.push(b.subarray(this.pos, stop));
      this.pos = stop;
      if (end >= 0) return keep ? (parts.length === 1 ? parts[0] : Buffer.concat(parts)) : undefined;
      if (!(await this.refill())) {
        if (started && depth === 0 && !inString) return keep ? Buffer.concat(parts) : undefined; // a scalar at the very end
        throw new JsonSyntaxError('unexpected end of the text');
      }
    }
  }

  /** Throws unless only whitespace is left. */
  async end(): Promise<void> {
    if ((await this.peek()) !== -1) throw new JsonSyntaxError(`unexpected data after the value at byte ${this.at}`);
  }

  private async refill(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.chunks.next();
    if (r.done) {
      this.done = true;
      this.offset += this.buf.length;
      this.buf = Buffer.alloc(0);
      this.pos = 0;
      return false;
    }
    this.offset += this.buf.length;
    this.buf = r.value;
    this.pos = 0;
    return true;
  }
}
