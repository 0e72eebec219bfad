/** Conversions between eval values, text, enumerated values and the cast operators. */
import { Entry, EVValue, RuntimeContext } from '../types';
import { getEV } from '../values';
import { goFloat } from './gofloat';
import { INT_CASTS, wrapInt } from './intkinds';
import { EvalRuntimeError, maxStringLength } from './limits';
import { formatIp, parseIp } from './ip';
import { formatGoDuration, formatTime, isValidTime, parseGoDuration, parseTime } from './timefmt';
import { arr, dur, float, FloatV, int, IntKind, IntV, IpV, isObj, time, Value } from './value';

/** Text of a value, as printf's %v and string() give it. */
export function toStr(v: Value): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  switch (v.k) {
    case 'int':
      return String(v.v);
    case 'float':
      return goFloat(v.v);
    case 'ip':
      return formatIp(v);
    case 'time':
      return formatTime(v.us);
    case 'dur':
      return formatGoDuration(v.ns);
    case 'array':
      return arrayText(v.a);
    case 'map':
      return `map[${[...v.m.keys()].join(' ')}]`;
  }
}

/** "[ a b c ]", stopped with an error as soon as it passes the string length limit. */
function arrayText(items: Value[]): string {
  if (items.length === 0) return '[ ]';
  const max = maxStringLength();
  let out = '[';
  for (const x of items) {
    out += ' ' + toStr(x);
    if (out.length > max) throw new EvalRuntimeError(`the text of an array is longer than ${max} characters (the string limit)`);
  }
  return out + ' ]';
}

const INT_TEXT = /^[-+]?\d+$/;
const HEX_TEXT = /^([-+]?)0[xX]([0-9a-fA-F]+)$/;
const FLOAT_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Number in a string ("42", "0x2a", "-1.5e3"), typed int or float; null when it is not one. */
export function parseNumber(s: string): IntV | FloatV | null {
  const t = s.trim();
  if (INT_TEXT.test(t)) {
    const n = Number(t);
    return Number.isSafeInteger(n) ? int(n) : float(n);
  }
  const h = HEX_TEXT.exec(t);
  if (h) return int((h[1] === '-' ? -1 : 1) * parseInt(h[2], 16));
  return FLOAT_TEXT.test(t) ? float(Number(t)) : null;
}

/** A number for arithmetic: ints and floats as they are, numeric strings parsed, else null. */
export function numeric(v: Value): IntV | FloatV | null {
  if (v === null || typeof v === 'boolean') return null;
  if (typeof v === 'string') return parseNumber(v);
  return v.k === 'int' || v.k === 'float' ? v : null;
}

function toIntKind(v: Value, t: IntKind): IntV | null {
  let n: number | null = null;
  if (typeof v === 'boolean') n = v ? 1 : 0;
  else if (typeof v === 'string') n = numeric(v)?.v ?? null;
  else if (v !== null) {
    if (v.k === 'int' || v.k === 'float') n = v.v;
    else if (v.k === 'dur') n = v.ns;
    else if (v.k === 'time') n = Math.floor(v.us / 1e6);
    else if (v.k === 'ip' && v.b.length === 4) n = ((v.b[0] << 24) >>> 0) + (v.b[1] << 16) + (v.b[2] << 8) + v.b[3];
  }
  if (n === null || !Number.isFinite(n)) return null;
  return int(wrapInt(Math.trunc(n), t), t);
}

export function toFloat(v: Value): FloatV | null {
  if (v === null) return null;
  if (typeof v === 'boolean') return float(v ? 1 : 0);
  if (typeof v === 'string') {
    const n = parseNumber(v);
    return n && float(n.v);
  }
  if (v.k === 'int' || v.k === 'float') return float(v.v);
  if (v.k === 'dur') return float(v.ns);
  if (v.k === 'time') return float(v.us / 1e6);
  return null;
}

export function toBool(v: Value): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
    return null;
  }
  if (isObj(v, 'int') || isObj(v, 'float')) return v.v !== 0;
  return null;
}

export function toIp(v: Value): IpV | null {
  if (isObj(v, 'ip')) return v;
  if (typeof v === 'string') return parseIp(v);
  if (isObj(v, 'int') && v.v >= 0 && v.v <= 0xffffffff) {
    const n = v.v;
    return { k: 'ip', b: Uint8Array.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]) };
  }
  return null;
}

function mulOrNull(n: IntV | FloatV | null, by: number): number | null {
  return n === null ? null : n.v * by;
}

/** time(): times, RFC 3339 text, or numbers as Unix seconds. */
export function toTime(v: Value): Value {
  let us: number | null = null;
  if (isObj(v, 'time')) return v;
  if (typeof v === 'string') us = parseTime(v) ?? mulOrNull(parseNumber(v), 1e6);
  else if (isObj(v, 'int') || isObj(v, 'float')) us = v.v * 1e6;
  return us !== null && isValidTime(us) ? time(Math.round(us)) : null;
}

/** duration(): durations, Go duration text ("1h30m"), or numbers as nanoseconds. */
export function toDuration(v: Value): Value {
  if (isObj(v, 'dur')) return v;
  if (typeof v === 'string') {
    const ns = parseGoDuration(v);
    if (ns !== null) return dur(ns);
    const n = numeric(v);
    return n ? dur(Math.trunc(n.v)) : null;
  }
  if (isObj(v, 'int') || isObj(v, 'float')) return Number.isFinite(v.v) ? dur(Math.trunc(v.v)) : null;
  return null;
}

/** array(): arrays, "[ a b c ]" text split on spaces, anything else as a one-element array. */
export function toArray(v: Value): Value {
  if (v === null || isObj(v, 'array')) return v;
  if (typeof v === 'string' && /^\[ .* \]$|^\[ \]$/.test(v))
    return arr(
      v
        .slice(1, -1)
        .trim()
        .split(/ +/)
        .filter((s) => s !== ''),
    );
  return arr([v]);
}

/** Cast operators the parser accepts. */
export const CASTS = new Set([...Object.keys(INT_CASTS), 'float', 'string', 'bool', 'ip', 'time', 'duration', 'array']);
/** Cast operators of the product this implementation does not have. */
export const UNSUPPORTED_CASTS = new Set(['mac', 'location']);

export function cast(name: string, v: Value): Value {
  const kind = INT_CASTS[name];
  if (kind) return toIntKind(v, kind);
  switch (name) {
    case 'float':
      return toFloat(v);
    case 'string':
      return v === null ? null : toStr(v);
    case 'bool':
      return toBool(v);
    case 'ip':
      return toIp(v);
    case 'time':
      return toTime(v);
    case 'duration':
      return toDuration(v);
    case 'array':
      return toArray(v);
    default:
      throw new Error(`unknown cast ${name}`);
  }
}

/** An enumerated value as an eval value (numbers keep their int/float nature). */
export function fromEV(v: EVValue | undefined): Value {
  if (v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isInteger(v) && Number.isSafeInteger(v) ? int(v) : float(v);
  return v.toString('utf8');
}

/** Reads an EV for eval: the entry's own first; SRC is an IP and TIMESTAMP a time when not set by a module. */
export function readEV(e: Entry, name: string, rt: RuntimeContext): Value {
  const own = e.evs.get(name);
  if (own !== undefined) return fromEV(own);
  if (name === 'TIMESTAMP') return time(e.ts);
  if (name === 'SRC') return parseIp(e.src) ?? e.src;
  return fromEV(getEV(e, name, rt));
}

/** An eval value as an EV: undefined removes the EV; IPs, times, durations and arrays become text. */
export function toEV(v: Value): EVValue | undefined {
  if (v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v.k === 'int' || v.k === 'float') return Number.isFinite(v.v) ? v.v : goFloat(v.v);
  return toStr(v);
}
