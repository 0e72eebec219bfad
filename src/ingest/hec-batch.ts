/**
 * The hot path of `POST /services/collector/event`: a body of concatenated event objects, read
 * straight from its bytes. The generic path decodes the whole body to a string, splits it,
 * `JSON.parse`s every event and encodes its text again; this reader gives the same entries for
 * bodies whose events are all good:
 *
 *   {"event": "..." | any value, "time": ..., "sourcetype": ..., "host": ..., "source": ...,
 *    "index": ..., "fields": {...}, other keys} {...}\n{...}
 *
 * An event string is copied as its bytes (one-character escapes replaced); every other value is
 * what JSON.parse gives (json-bytes.ts), and the entry is made by the same rules as
 * parseHecEvent's (hecTime, the tag rule, hecMetadata). A bad event, too many events, nesting
 * past `MAX_JSON_DEPTH`, whitespace other than ASCII between events, a body that is not valid
 * UTF-8, or anything else it does not read: `undefined`, and the generic path runs, which gives
 * the stored part and the error (a bad event ends the batch, HEC codes) as before.
 */
import { isUtf8 } from 'node:buffer';
import { HecEventContext, hecMetadata } from './hec.parse';
import { PendingEntry } from './ingest.service';
import { BACKSLASH, bytesAre, COLON, COMMA, JsonBytes, LBRACE, notHere, orGeneric, QUOTE, RBRACE, sameBytes } from './json-bytes';
import { hecTime } from './timestamps';

export interface HecBatchContext extends HecEventContext {
  /** `MAX_INGEST_ENTRIES` */
  maxEvents: number;
}

/** The entries of a HEC event body when every event is good and read here, else undefined. */
export function readHecBatch(body: Buffer, ctx: HecBatchContext): PendingEntry[] | undefined {
  // An event nests at least one level; the generic path says what a limit under that means.
  if (ctx.maxJsonDepth < 1 || !isUtf8(body)) return undefined;
  return orGeneric(() => new HecReader(body, ctx).read());
}

/** What an event says, as JSON.parse would give it (`event`: its value, or its string's bytes). */
interface HecFields {
  hasEvent: boolean;
  /** the event's string as UTF-8 in the arena (from, to), when it was read so (else -1 and `event`) */
  eventFrom: number;
  eventTo: number;
  event: unknown;
  time: unknown;
  sourcetype: unknown;
  /** what hecMetadata reads */
  meta: { host: unknown; source: unknown; index: unknown; fields: unknown };
}

/** The byte each one-character escape stands for (0: not one; `\u` is left to JSON.parse). */
const SHORT_ESCAPE = new Uint8Array(256);
for (const [c, v] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const)
  SHORT_ESCAPE[c.charCodeAt(0)] = v;

class HecReader extends JsonBytes {
  /** the previous event's sourcetype string: its bytes and value */
  private stFrom = -1;
  private stTo = -1;
  private st = '';
  /** The events' strings as UTF-8 (never longer than their JSON text): each entry's `data` is a view of its part. */
  private readonly arena: Buffer;
  private out = 0;
  /** one event's fields, reused */
  private readonly f: HecFields = {
    hasEvent: false,
    eventFrom: -1,
    eventTo: -1,
    event: undefined,
    time: undefined,
    sourcetype: undefined,
    meta: { host: undefined, source: undefined, index: undefined, fields: undefined },
  };

  constructor(
    b: Buffer,
    private readonly ctx: HecBatchContext,
  ) {
    super(b);
    this.arena = Buffer.allocUnsafeSlow(b.length);
  }

  read(): PendingEntry[] {
    const b = this.b;
    const n = b.length;
    const out: PendingEntry[] = [];
    for (;;) {
      // Between events: ASCII whitespace as /\s/ has it (other whitespace: the generic path).
      let c = b[this.p];
      while (c === 0x20 || (c >= 0x09 && c <= 0x0d)) c = b[++this.p];
      if (this.p >= n) break;
      if (c !== LBRACE) throw notHere;
      this.p++;
      this.event();
      out.push(this.entry());
      if (out.length > this.ctx.maxEvents) throw notHere;
    }
    if (!out.length) throw notHere;
    return out;
  }

  /** One event object, its `{` read, into `this.f`. */
  private event(): void {
    const b = this.b;
    const room = this.ctx.maxJsonDepth - 1; // the object is at depth 1
    const f = this.f;
    f.hasEvent = false;
    f.eventFrom = f.eventTo = -1;
    f.event = f.time = f.sourcetype = undefined;
    f.meta.host = f.meta.source = f.meta.index = f.meta.fields = undefined;
    this.ws();
    if (b[this.p] === RBRACE) throw notHere; // {}: no event
    for (;;) {
      this.expect(QUOTE);
      const keyFrom = this.p;
      const keyTo = this.plainString();
      this.ws();
      this.expect(COLON);
      this.ws();
      // Duplicate keys: the last one counts, as in JSON.parse.
      switch (keyTo - keyFrom) {
        case 4:
          if (bytesAre(b, keyFrom, keyTo, 'time')) f.time = this.value(room);
          else if (bytesAre(b, keyFrom, keyTo, 'host')) f.meta.host = this.value(room);
          else this.value(room);
          break;
        case 5:
          if (bytesAre(b, keyFrom, keyTo, 'event')) this.eventValue(room);
          else if (bytesAre(b, keyFrom, keyTo, 'index')) f.meta.index = this.value(room);
          else this.value(room);
          break;
        case 6:
          if (bytesAre(b, keyFrom, keyTo, 'source')) f.meta.source = this.value(room);
          else if (bytesAre(b, keyFrom, keyTo, 'fields')) f.meta.fields = this.value(room);
          else this.value(room);
          break;
        case 10:
          if (bytesAre(b, keyFrom, keyTo, 'sourcetype')) f.sourcetype = this.sourcetype(room);
          else this.value(room);
          break;
        default:
          this.value(room);
      }
      this.ws();
      const next = b[this.p++];
      if (next === RBRACE) return;
      if (next !== COMMA) throw notHere;
      this.ws();
    }
  }

  /**
   * `event`: a string is written to the arena as UTF-8 while it is read (its bytes, one-character
   * escapes replaced by their byte: what Buffer.from of JSON.parse's string gives); a string with
   * a `\u` escape, and any other value, is what JSON.parse gives.
   */
  private eventValue(room: number): void {
    const f = this.f;
    const b = this.b;
    f.hasEvent = true;
    f.eventFrom = f.eventTo = -1;
    f.event = undefined;
    if (b[this.p] !== QUOTE) {
      f.event = this.value(room);
      return;
    }
    const from = ++this.p;
    const out = this.arena;
    const n = b.length;
    const start = this.out;
    let o = start;
    for (let p = from; p < n; p++) {
      const c = b[p];
      if (c === QUOTE) {
        this.p = p + 1;
        this.out = o;
        f.eventFrom = start;
        f.eventTo = o;
        return;
      }
      if (c === BACKSLASH) {
        const v = SHORT_ESCAPE[b[++p]];
        if (!v) {
          // \u, not an escape, or the end of the body: JSON.parse of the string decides.
          this.p = from;
          f.event = this.stringValue();
          return;
        }
        out[o++] = v;
      } else if (c < 0x20) throw notHere;
      else out[o++] = c;
    }
    throw notHere;
  }

  /** `sourcetype`: its value (a plain string is decoded once per run of events with the same bytes). */
  private sourcetype(room: number): unknown {
    const b = this.b;
    if (b[this.p] !== QUOTE) return this.value(room);
    const from = ++this.p;
    const { end, escaped } = this.string();
    if (escaped) {
      this.p = from;
      return this.stringValue();
    }
    if (!sameBytes(b, from, end, this.stFrom, this.stTo)) {
      this.st = b.toString('utf8', from, end);
      this.stFrom = from;
      this.stTo = end;
    }
    return this.st;
  }

  /** The entry, by parseHecEvent's rules; a bad event (any HEC error) is not read here. */
  private entry(): PendingEntry {
    const ctx = this.ctx;
    const f = this.f;
    let data: Buffer;
    if (f.eventFrom >= 0) {
      if (f.eventFrom === f.eventTo) throw notHere; // "": code 13
      data = this.arena.subarray(f.eventFrom, f.eventTo);
    } else {
      if (!f.hasEvent || f.event === null || f.event === '') throw notHere; // codes 12, 13
      data = Buffer.from(typeof f.event === 'string' ? f.event : JSON.stringify(f.event), 'utf8');
    }
    const t = f.time;
    const ts = t === undefined || t === null || t === '' ? ctx.nowUs : hecTime(t);
    if (ts === null) throw notHere;
    const m = f.meta;
    let meta: { src: string; evs: PendingEntry['evs'] };
    if (m.host === undefined && m.source === undefined && m.index === undefined && m.fields === undefined) {
      meta = { src: ctx.client, evs: null }; // what hecMetadata gives for an event without them
    } else {
      try {
        meta = hecMetadata(m, ctx.client);
      } catch {
        throw notHere;
      }
    }
    return { ts, tag: ctx.tagFor(f.sourcetype), data, src: meta.src, evs: meta.evs };
  }
}
