/** json_* built-ins and evs_to_json. JSON text in, JSON text out; values map to JSON types. */
import { formatTs } from '../../values';
import { toStr } from '../convert';
import { EvalRuntimeError, MAX_ARRAY_DEPTH, maxStringLength } from '../limits';
import { arr, float, int, isObj, Value } from '../value';
import { integer, text } from './args';
import { Builtin, CallCtx } from './registry';

function parse(s: string, ctx: CallCtx): unknown {
  ctx.charge(s.length);
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * A value as JSON: numbers, bools, text (text holding a JSON object or array is embedded as one),
 * arrays as arrays; IPs, times and durations as text. Stops at the string length limit.
 */
function toJson(v: Value, ctx: CallCtx, budget: { left: number }): unknown {
  budget.left -= 8;
  if (budget.left < 0) throw new EvalRuntimeError(`JSON text longer than ${maxStringLength()} characters (the string limit)`);
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    budget.left -= v.length;
    const t = v.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      const doc = parse(v, ctx);
      if (doc !== undefined) return doc;
    }
    return v;
  }
  if (isObj(v, 'int') || isObj(v, 'float')) return Number.isFinite(v.v) ? v.v : toStr(v);
  if (isObj(v, 'array')) return v.a.map((x) => toJson(x, ctx, budget));
  if (isObj(v, 'time')) return formatTs(v.us);
  return toStr(v);
}

function spend(s: string, budget: { left: number }): string {
  budget.left -= s.length;
  if (budget.left < 0) throw new EvalRuntimeError(`JSON text longer than ${maxStringLength()} characters (the string limit)`);
  return s;
}

function stringify(doc: unknown, indent?: number): string | null {
  let s: string | undefined;
  try {
    s = JSON.stringify(doc, null, indent);
  } catch {
    return null; // nested too deeply to print
  }
  if (s !== undefined && s.length > maxStringLength()) throw new EvalRuntimeError(`JSON text longer than ${maxStringLength()} characters (the string limit)`);
  return s ?? null;
}

const budget = () => ({ left: maxStringLength() });

/**
 * A JSON value as an eval value: numbers are floats (as the product documents) unless `typed`
 * (json_to_gravwell_array: integers stay integers); arrays become eval arrays for `arrays` more
 * levels; objects, and arrays past that, stay JSON text.
 */
function fromJson(x: unknown, arrays: number, typed: boolean): Value {
  if (x === null || x === undefined) return null;
  if (typeof x === 'string' || typeof x === 'boolean') return x;
  if (typeof x === 'number') return typed && Number.isSafeInteger(x) ? int(x) : float(x);
  if (Array.isArray(x) && arrays > 0) return arr(x.map((y) => fromJson(y, arrays - 1, typed)));
  return stringify(x);
}

function jsonOf(s: Value, ctx: CallCtx): unknown {
  const t = text(s);
  return t === null ? undefined : parse(t, ctx);
}

export const JSON_FUNCS: Builtin[] = [
  { name: 'json', sig: 'json(s) bool', min: 1, max: 1, fn: ([s], ctx) => jsonOf(s, ctx) !== undefined },
  {
    name: 'json_get',
    sig: 'json_get(object, key) bool/float/string',
    min: 2,
    max: 2,
    fn([o, k], ctx) {
      const doc = jsonOf(o, ctx);
      return isPlainObject(doc) && k !== null && Object.hasOwn(doc, text(k)!) ? fromJson(doc[text(k)!], 0, false) : null;
    },
  },
  {
    name: 'json_index',
    sig: 'json_index(array, i) bool/float/string',
    min: 2,
    max: 2,
    fn([a, i], ctx) {
      const doc = jsonOf(a, ctx);
      const n = integer(i);
      return Array.isArray(doc) && n !== null && n >= 0 && n < doc.length ? fromJson(doc[n], 0, false) : null;
    },
  },
  {
    name: 'json_keys',
    sig: 'json_keys(object) array',
    min: 1,
    max: 1,
    fn: ([o], ctx) => {
      const doc = jsonOf(o, ctx);
      return isPlainObject(doc) ? arr(Object.keys(doc)) : null;
    },
  },
  {
    name: 'json_len',
    sig: 'json_len(array) int',
    min: 1,
    max: 1,
    fn([a], ctx) {
      const doc = jsonOf(a, ctx);
      return Array.isArray(doc) ? int(doc.length) : isPlainObject(doc) ? int(Object.keys(doc).length) : null;
    },
  },
  { name: 'json_array', sig: 'json_array(value) string', min: 1, max: 1, fn: ([v], ctx) => stringify([toJson(v, ctx, budget())]) },
  {
    name: 'json_object',
    sig: 'json_object(key, value) string',
    min: 2,
    max: 2,
    fn: ([k, v], ctx) => (k === null ? null : stringify({ [text(k)!]: toJson(v, ctx, budget()) })),
  },
  {
    name: 'json_append',
    sig: 'json_append(array, value) string',
    min: 2,
    max: 2,
    fn([a, v], ctx) {
      const doc = jsonOf(a, ctx);
      if (!Array.isArray(doc)) return null;
      doc.push(toJson(v, ctx, budget()));
      return stringify(doc);
    },
  },
  {
    name: 'json_array_set',
    sig: 'json_array_set(array, i, value) string',
    min: 3,
    max: 3,
    fn([a, i, v], ctx) {
      const doc = jsonOf(a, ctx);
      const n = integer(i);
      if (!Array.isArray(doc) || n === null || n < 0 || n >= doc.length) return null;
      doc[n] = toJson(v, ctx, budget());
      return stringify(doc);
    },
  },
  {
    name: 'json_set',
    sig: 'json_set(object, key, value) string',
    min: 3,
    max: 3,
    fn([o, k, v], ctx) {
      const doc = text(o)?.trim() === '' ? {} : jsonOf(o, ctx);
      if (!isPlainObject(doc) || k === null) return null;
      doc[text(k)!] = toJson(v, ctx, budget());
      return stringify(doc);
    },
  },
  {
    name: 'json_pretty',
    sig: 'json_pretty(s) string',
    min: 1,
    max: 1,
    fn: ([s], ctx) => {
      const doc = jsonOf(s, ctx);
      return doc === undefined ? null : stringify(doc, 2);
    },
  },
  {
    name: 'json_to_gravwell_array',
    sig: 'json_to_gravwell_array(array) array',
    min: 1,
    max: 1,
    fn: ([a], ctx) => {
      const doc = jsonOf(a, ctx);
      return Array.isArray(doc) ? arr(doc.map((x) => fromJson(x, MAX_ARRAY_DEPTH - 1, true))) : null;
    },
  },
  {
    name: 'evs_to_json',
    sig: 'evs_to_json() string',
    min: 0,
    max: 0,
    fn(_args, ctx) {
      const b = budget();
      const out: Record<string, unknown> = {};
      for (const name of ctx.evNames()) {
        const v = ctx.readName(name);
        // text stays text here: each EV keeps its own type
        out[name] = typeof v === 'string' ? spend(v, b) : toJson(v, ctx, b);
      }
      return stringify(out);
    },
  },
];
