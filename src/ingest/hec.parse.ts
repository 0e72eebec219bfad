/** HEC bodies: one or more concatenated (or newline separated) JSON event objects. */
import { isIP } from 'node:net';
import { AppError } from '../common/errors/app-error';
import { jsonDeeperThan, jsonTooDeep } from '../common/validation/json-depth';
import { SerializedEV } from '../query';
import { checkSource } from './ingest.rules';
import { PendingEntry } from './ingest.service';
import { hecTime } from './timestamps';

/** A HEC failure: HTTP status, HEC code (`hecCode`) and text, and for a bad event of a batch its index. */
export class HecError extends AppError {
  constructor(
    status: number,
    readonly hecCode: number,
    message: string,
    readonly invalidEvent?: number,
  ) {
    super(status, message);
    this.name = 'HecError';
  }
}

/** What a body holds up to its first bad event, and that event's error (with its index). */
export interface HecBatch<T> {
  items: T[];
  failure?: HecError;
}

/** How the events of one request become entries. */
export interface HecEventContext {
  nowUs: number;
  /** the caller's address: the source of events whose `host` is not an IP address */
  client: string;
  maxJsonDepth: number;
  /** the tag of an event, from its `sourcetype` (and the request's `?tag=` / `?sourcetype=`) */
  tagFor(sourcetype: unknown): string;
}

const MAX_FIELDS = 64;
/** Event keys kept as enumerated values (`host` only when it is not an IP address). */
const INTRINSIC_EVS = ['source', 'index', 'host'] as const;

const invalidFormat = (index: number, why?: string): HecError => new HecError(400, 6, why ? `Invalid data format: ${why}` : 'Invalid data format', index);

/** Splits `{...}{...}\n{...}` into the JSON texts of its top-level values, up to the first malformed one. */
export function splitConcatenatedJson(text: string): HecBatch<string> {
  const { items, failure } = splitEvents(text);
  return failure ? { items, failure } : { items };
}

/** The texts of a HEC body's events, and how deeply each nests (what `jsonDeeperThan` counts). */
export interface HecTexts extends HecBatch<string> {
  depths: number[];
}

const QUOTE = 0x22;
const BACKSLASH = '\\';

/**
 * `splitConcatenatedJson`, with each value's nesting depth found in the same pass (so that no
 * second scan per event is needed before JSON.parse). Strings are skipped with `indexOf` (the
 * next quote not taken by a backslash escape), the rest is read character by character: between
 * values, whitespace as `/\s/` has it; a value is an object or an array, up to its closing
 * bracket. (A top-level string gives the text `"`, which no event parses as, like before.)
 */
export function splitEvents(text: string): HecTexts {
  const items: string[] = [];
  const depths: number[] = [];
  const n = text.length;
  // The next quote and the next backslash at or after where the scan is; -1: none left.
  let quote = -2;
  let backslash = -2;
  /** Past the string whose opening quote is before `i`, or -1 when it does not end. */
  const skipString = (i: number): number => {
    for (;;) {
      if (quote !== -1 && quote < i) quote = text.indexOf('"', i);
      if (quote === -1) return -1;
      if (backslash !== -1 && backslash < i) backslash = text.indexOf(BACKSLASH, i);
      if (backslash === -1 || backslash > quote) return quote + 1;
      i = backslash + 2; // the escaped character is skipped, whatever it is
    }
  };
  const fail = (): HecTexts => ({ items, depths, failure: invalidFormat(items.length) });
  let i = 0;
  for (;;) {
    let c = 0;
    while (i < n && isSpace((c = text.charCodeAt(i)))) i++;
    if (i >= n) return { items, depths };
    const start = i++;
    if (c === QUOTE) {
      items.push('"');
      depths.push(0);
      if ((i = skipString(i)) < 0) return fail();
      continue;
    }
    if (c !== 0x7b && c !== 0x5b) return fail();
    let depth = 1;
    let max = 1;
    for (;;) {
      if (i >= n) return fail();
      c = text.charCodeAt(i++);
      if (c === QUOTE) {
        if ((i = skipString(i)) < 0) return fail();
      } else if (c === 0x7b || c === 0x5b) {
        if (++depth > max) max = depth;
      } else if ((c === 0x7d || c === 0x5d) && --depth === 0) break;
    }
    items.push(text.slice(start, i));
    depths.push(max);
  }
}

/** What `/\s/` matches, for one UTF-16 code unit. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x80 && /\s/.test(String.fromCharCode(c)));
}

/** The entries of the event texts, up to the first bad event; `depths` as `splitEvents` finds them (else counted here). */
export function parseHecEvents(texts: string[], ctx: HecEventContext, depths?: number[]): HecBatch<PendingEntry> {
  const items: PendingEntry[] = [];
  for (let index = 0; index < texts.length; index++) {
    try {
      items.push(parseHecEvent(texts[index], index, ctx, depths?.[index]));
    } catch (err) {
      if (!(err instanceof HecError)) throw err;
      return { items, failure: err };
    }
  }
  return { items };
}

function parseHecEvent(text: string, index: number, ctx: HecEventContext, depth: number | undefined): PendingEntry {
  // Checked before JSON.parse and JSON.stringify, which recurse and would overflow the stack.
  if (depth === undefined ? jsonDeeperThan(text, ctx.maxJsonDepth) : depth > ctx.maxJsonDepth) throw invalidFormat(index, jsonTooDeep(ctx.maxJsonDepth));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidFormat(index);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidFormat(index);
  const ev = parsed as Record<string, unknown>;
  if (!('event' in ev) || ev.event === null) throw new HecError(400, 12, 'Event field is required', index);
  if (ev.event === '') throw new HecError(400, 13, 'Event field cannot be blank', index);
  const ts = ev.time === undefined || ev.time === null || ev.time === '' ? ctx.nowUs : hecTime(ev.time);
  if (ts === null) throw invalidFormat(index, 'bad time');
  const data = Buffer.from(typeof ev.event === 'string' ? ev.event : JSON.stringify(ev.event), 'utf8');
  return { ts, tag: ctx.tagFor(ev.sourcetype), data, ...hecMetadata(ev, ctx.client, index) };
}

/**
 * Where an event (or a `/raw` request's query) says it comes from: a `host` that is an IP
 * address is the entry's source (else the caller's address); `fields`, `source`, `index` and a
 * `host` name become EVs.
 */
export function hecMetadata(ev: Record<string, unknown>, client: string, index = 0): { src: string; evs: Array<[string, SerializedEV]> | null } {
  const address = typeof ev.host === 'string' && isIP(ev.host.trim()) ? checkSource(ev.host) : undefined;
  return { src: address ?? client, evs: hecEvs(ev, address === undefined, index) };
}

/** `fields`, then `source`, `index` and (when not an address) `host` as EVs; a field of the same name wins. */
function hecEvs(ev: Record<string, unknown>, hostIsName: boolean, index: number): Array<[string, SerializedEV]> | null {
  const evs = hecFields(ev.fields, index);
  for (const name of INTRINSIC_EVS) {
    const v = ev[name];
    if (v === undefined || v === null || v === '' || (name === 'host' && !hostIsName) || evs.some(([k]) => k === name)) continue;
    evs.push([name, evValue(v)]);
  }
  return evs.length ? evs : null;
}

/** HEC `fields` -> EVs. */
function hecFields(fields: unknown, index: number): Array<[string, SerializedEV]> {
  if (fields === undefined || fields === null) return [];
  if (typeof fields !== 'object' || Array.isArray(fields)) throw invalidFormat(index, 'fields must be an object');
  const out: Array<[string, SerializedEV]> = [];
  for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
    if (!k.length || k.length > 128) throw invalidFormat(index, 'field names must be 1 to 128 characters');
    out.push([k, evValue(v)]);
  }
  if (out.length > MAX_FIELDS) throw invalidFormat(index, `more than ${MAX_FIELDS} fields`);
  return out;
}

/** Strings, finite numbers and booleans as they are; anything else as JSON text. */
function evValue(v: unknown): SerializedEV {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : JSON.stringify(v);
}
