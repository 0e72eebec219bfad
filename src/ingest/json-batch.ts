/**
 * The hot path of `PUT /api/ingest/json`: a batch in the usual form, read straight from the
 * body's bytes. `JSON.parse` of the whole body, the depth scan before it and the checks after it
 * cost several µs per entry; most of it is making strings and objects that are thrown away at
 * once (`TS` as a string, `Data` as base64 text). This reader accepts a subset of the valid
 * bodies and gives for them exactly the entries the generic path gives:
 *
 *   [ {"TS": "...", "Tag": "...", "Data": "...", "SRC": "..." | null, "Enumerated": [...] | null, other keys}, ... ]
 *
 * with JSON whitespace anywhere between tokens (`TS`, `Tag` and `SRC` without escapes). Anything
 * it does not read, and every problem (a bad entry, too many entries, too deep, a malformed
 * body), makes it answer `undefined`: the caller then runs the generic path, which finds the
 * problem and gives its error. So every error comes from one place, and the rules are those of
 * ingest.rules.ts. See json-bytes.ts for why the values read are those JSON.parse gives.
 */
import { PendingEntry } from './ingest.service';
import { checkSource, decodeEnumerated, tagNameProblem } from './ingest.rules';
import { bytesAre, COMMA, COLON, JsonBytes, LBRACE, LBRACKET, notHere, orGeneric, QUOTE, RBRACE, RBRACKET, sameBytes } from './json-bytes';
import { parseRfc3339, rfc3339FromAscii } from './timestamps';

export interface JsonBatchOptions {
  /** the source of entries without `SRC` */
  client: string;
  /** `MAX_JSON_DEPTH` */
  maxDepth: number;
  /** `MAX_INGEST_ENTRIES` */
  maxEntries: number;
}

const EQUALS = 0x3d;

/** The value of each character of base64's alphabet; -1 for every other byte (`=` included). */
const BASE64_VALUE = new Int8Array(256).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((c, i) => (BASE64_VALUE[c.charCodeAt(0)] = i));

/** The keys an entry may have. */
const enum Key {
  Other,
  TS,
  Tag,
  Data,
  SRC,
  Enumerated,
}

/**
 * The entries of a `PUT /api/ingest/json` body when it has the usual form and every entry is
 * valid, else undefined (the generic path then gives the entries or the error).
 */
export function readJsonBatch(body: Buffer, opts: JsonBatchOptions): PendingEntry[] | undefined {
  // A body of depth 2 (array of objects) is deeper than a limit under 2.
  if (opts.maxDepth < 2) return undefined;
  return orGeneric(() => new BatchReader(body, opts).read());
}

class BatchReader extends JsonBytes {
  /** The entries' data, decoded: each entry's `data` is a view of its part (3 bytes per 4 of base64 at most). */
  private readonly arena: Buffer;
  private out = 0;
  /** the previous entry's tag: its bytes and string */
  private tagFrom = -1;
  private tagTo = -1;
  private tag = '';
  private srcFrom = -1;
  private srcTo = -1;
  private src = '';

  constructor(
    b: Buffer,
    private readonly opts: JsonBatchOptions,
  ) {
    super(b);
    this.arena = Buffer.allocUnsafeSlow(Math.floor(b.length / 4) * 3);
  }

  read(): PendingEntry[] {
    const b = this.b;
    const out: PendingEntry[] = [];
    this.ws();
    this.expect(LBRACKET);
    this.ws();
    // `[]` is left to the generic path (nothing to gain).
    for (;;) {
      this.expect(LBRACE);
      out.push(this.entry(out.length));
      if (out.length > this.opts.maxEntries) throw notHere;
      this.ws();
      const c = b[this.p++];
      if (c === RBRACKET) break;
      if (c !== COMMA) throw notHere;
      this.ws();
    }
    this.ws();
    if (this.p !== b.length) throw notHere;
    return out;
  }

  /** One entry object, its `{` read. */
  private entry(index: number): PendingEntry {
    const b = this.b;
    let tsFrom = -1;
    let tsTo = -1;
    let tagFrom = -1;
    let tagTo = -1;
    let dataFrom = -1;
    let dataTo = -1;
    let srcFrom = -1;
    let srcTo = -1;
    let enumFrom = -1;
    let enumTo = -1;
    this.ws();
    if (b[this.p] === RBRACE) throw notHere; // {}: no TS
    for (;;) {
      this.expect(QUOTE);
      const keyFrom = this.p;
      const keyTo = this.plainString();
      const key = keyOf(b, keyFrom, keyTo);
      this.ws();
      this.expect(COLON);
      this.ws();
      const c = b[this.p];
      // Duplicate keys: the last one counts, as in JSON.parse.
      if (key === Key.Data) {
        if (c !== QUOTE) throw notHere;
        this.p++;
        dataFrom = this.out;
        dataTo = this.base64();
      } else if (key === Key.TS || key === Key.Tag) {
        if (c !== QUOTE) throw notHere;
        const from = ++this.p;
        const to = this.plainString();
        if (key === Key.TS) {
          tsFrom = from;
          tsTo = to;
        } else {
          tagFrom = from;
          tagTo = to;
        }
      } else if (key === Key.SRC) {
        if (c === QUOTE) {
          srcFrom = ++this.p;
          srcTo = this.plainString();
        } else {
          if (this.scalar() !== null) throw notHere;
          srcFrom = srcTo = -1;
        }
      } else if (key === Key.Enumerated) {
        if (c === LBRACKET) {
          enumFrom = this.p;
          enumTo = this.skipNested(this.opts.maxDepth - 2);
        } else {
          if (this.scalar() !== null) throw notHere;
          enumFrom = enumTo = -1;
        }
      } else this.value(this.opts.maxDepth - 2); // a key the ingest rules ignore: valid JSON, not too deep
      this.ws();
      const next = b[this.p++];
      if (next === RBRACE) break;
      if (next !== COMMA) throw notHere;
      this.ws();
    }
    if (tsFrom < 0 || tagFrom < 0 || dataFrom < 0) throw notHere;
    return {
      ts: this.timestamp(tsFrom, tsTo),
      tag: this.tagName(tagFrom, tagTo),
      src: srcFrom < 0 || srcFrom === srcTo ? this.opts.client : this.source(srcFrom, srcTo),
      data: this.arena.subarray(dataFrom, dataTo),
      evs: enumFrom < 0 ? null : this.enumerated(enumFrom, enumTo, index),
    };
  }

  private timestamp(from: number, to: number): number {
    const us = rfc3339FromAscii(this.b, from, to);
    if (us >= 0) return us;
    const slow = parseRfc3339(this.b.toString('utf8', from, to));
    if (slow === null) throw notHere;
    return slow;
  }

  /** The tag (checked once per run of entries with the same tag bytes). */
  private tagName(from: number, to: number): string {
    if (!sameBytes(this.b, from, to, this.tagFrom, this.tagTo)) {
      const tag = this.b.toString('utf8', from, to);
      if (tagNameProblem(tag) !== undefined) throw notHere;
      this.tag = tag;
      this.tagFrom = from;
      this.tagTo = to;
    }
    return this.tag;
  }

  private source(from: number, to: number): string {
    if (!sameBytes(this.b, from, to, this.srcFrom, this.srcTo)) {
      let src: string | undefined;
      try {
        src = checkSource(this.b.toString('utf8', from, to));
      } catch {
        throw notHere;
      }
      if (src === undefined) throw notHere; // cannot be: the string is not empty
      this.src = src;
      this.srcFrom = from;
      this.srcTo = to;
    }
    return this.src;
  }

  private enumerated(from: number, to: number, index: number): PendingEntry['evs'] {
    try {
      return decodeEnumerated(JSON.parse(this.b.toString('utf8', from, to)), `entry ${index}`);
    } catch {
      throw notHere;
    }
  }

  /**
   * A base64 string as `decodeBase64` accepts it (groups of four characters of the alphabet, the
   * last one perhaps `xx==` or `xxx=`), its `"` read, decoded into the arena as `Buffer.from(text,
   * 'base64')` decodes it (bits past the last byte dropped): moves past the closing `"` and
   * returns where its bytes end in the arena. One pass, no string made.
   */
  private base64(): number {
    const b = this.b;
    const out = this.arena;
    const last = b.length - 4;
    let p = this.p;
    let o = this.out;
    while (p <= last) {
      const v = (BASE64_VALUE[b[p]] << 18) | (BASE64_VALUE[b[p + 1]] << 12) | (BASE64_VALUE[b[p + 2]] << 6) | BASE64_VALUE[b[p + 3]];
      if (v < 0) break; // a byte outside the alphabet (-1 sets every high bit)
      out[o] = v >> 16;
      out[o + 1] = v >> 8;
      out[o + 2] = v;
      o += 3;
      p += 4;
    }
    if (b[p] !== QUOTE) {
      // The last group: `xx==` or `xxx=`, then the closing quote.
      if (p > last || b[p + 4] !== QUOTE || b[p + 3] !== EQUALS) throw notHere;
      const x = BASE64_VALUE[b[p]];
      const y = BASE64_VALUE[b[p + 1]];
      if (x < 0 || y < 0) throw notHere;
      out[o++] = (x << 2) | (y >> 4);
      if (b[p + 2] !== EQUALS) {
        const z = BASE64_VALUE[b[p + 2]];
        if (z < 0) throw notHere;
        out[o++] = (y << 4) | (z >> 2);
      }
      p += 4;
    }
    // Cannot happen (the arena holds 3 bytes per 4 of the body), but a typed array drops writes past its end silently.
    if (o > out.length) throw notHere;
    this.p = p + 1;
    this.out = o;
    return o;
  }
}

/** Which entry key the bytes `b[from..to)` are. */
function keyOf(b: Buffer, from: number, to: number): Key {
  switch (to - from) {
    case 2:
      return bytesAre(b, from, to, 'TS') ? Key.TS : Key.Other;
    case 3:
      return bytesAre(b, from, to, 'Tag') ? Key.Tag : bytesAre(b, from, to, 'SRC') ? Key.SRC : Key.Other;
    case 4:
      return bytesAre(b, from, to, 'Data') ? Key.Data : Key.Other;
    case 10:
      return bytesAre(b, from, to, 'Enumerated') ? Key.Enumerated : Key.Other;
    default:
      return Key.Other;
  }
}
