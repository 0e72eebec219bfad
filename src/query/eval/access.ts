/** Indexing, ranges and indexed assignment on arrays, strings and maps. */
import { numeric, toStr } from './convert';
import { approxBytes, arr, isObj, leafCount, Value } from './value';

/** An index as an integer (numbers and numeric text), else null. */
export function toIndex(v: Value): number | null {
  const n = numeric(v);
  return n && Number.isFinite(n.v) ? Math.trunc(n.v) : null;
}

/** A map key: the text of the value; no value is no key. */
export function keyOf(v: Value): string | null {
  return v === null ? null : toStr(v);
}

/** Work a value stands for: characters of text, elements of arrays. */
export function sizeOf(v: Value): number {
  if (typeof v === 'string') return v.length;
  if (isObj(v, 'array')) return leafCount(v);
  return 0;
}

/** x[i]: an element, a one-character string, a map's value; no value when out of range. */
export function indexValue(target: Value, index: Value): Value {
  if (isObj(target, 'map')) {
    const key = keyOf(index);
    return key === null ? null : (target.m.get(key) ?? null);
  }
  const i = toIndex(index);
  if (i === null || i < 0) return null;
  if (isObj(target, 'array')) return i < target.a.length ? target.a[i] : null;
  if (typeof target === 'string') return i < target.length ? target[i] : null;
  return null;
}

/** x[from:to] of an array or string (end excluded; bounds clamped). */
export function sliceValue(target: Value, from: Value, to: Value, store: (v: Value) => Value): Value {
  const len = isObj(target, 'array') ? target.a.length : typeof target === 'string' ? target.length : -1;
  if (len < 0) return null;
  const a = toIndex(from);
  const b = toIndex(to);
  if (a === null || b === null) return null;
  const lo = Math.min(Math.max(a, 0), len);
  const hi = Math.max(lo, Math.min(b, len));
  if (typeof target === 'string') return target.slice(lo, hi);
  return arr((target as Extract<Value, { k: 'array' }>).a.slice(lo, hi).map(store));
}

export interface SetResult {
  value: Value;
  /** approximate bytes added (persistent state accounting) */
  delta: number;
  changed: boolean;
}

/**
 * Sets `cur[keys[k]]...[keys[n-1]] = v`. Arrays change in place (they are owned by the place
 * being assigned); a string gets a new value with the character at the index replaced. An index
 * outside the array or string changes nothing.
 */
export function setIn(cur: Value, keys: Value[], k: number, v: Value, store: (v: Value) => Value): SetResult {
  const i = toIndex(keys[k]);
  const last = k === keys.length - 1;
  if (isObj(cur, 'array')) {
    if (i === null || i < 0 || i >= cur.a.length) return { value: cur, delta: 0, changed: false };
    const old = cur.a[i];
    if (last) {
      const nv = store(v);
      cur.a[i] = nv;
      return { value: cur, delta: approxBytes(nv) - approxBytes(old), changed: true };
    }
    const r = setIn(old, keys, k + 1, v, store);
    cur.a[i] = r.value;
    return { value: cur, delta: r.delta, changed: r.changed };
  }
  if (typeof cur === 'string' && last && i !== null && i >= 0 && i < cur.length) {
    const s = cur.slice(0, i) + (v === null ? '' : toStr(v)) + cur.slice(i + 1);
    return { value: s, delta: 2 * (s.length - cur.length), changed: true };
  }
  return { value: cur, delta: 0, changed: false };
}
