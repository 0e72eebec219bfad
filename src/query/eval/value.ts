/** Runtime values of eval programs. `null` is "no value" (a missing EV, a failed cast, x/0). */

/** Integer types; `int` is int64 and `byte` is uint8. Integers are exact within ±2^53. */
export type IntKind = 'int' | 'int8' | 'int16' | 'int32' | 'uint8' | 'uint16' | 'uint32' | 'uint64';

export interface IntV {
  readonly k: 'int';
  readonly v: number;
  readonly t: IntKind;
}
export interface FloatV {
  readonly k: 'float';
  readonly v: number;
}
/** 4 bytes (IPv4) or 16 bytes (IPv6) */
export interface IpV {
  readonly k: 'ip';
  readonly b: Uint8Array;
}
/** epoch microseconds */
export interface TimeV {
  readonly k: 'time';
  readonly us: number;
}
/** nanoseconds */
export interface DurV {
  readonly k: 'dur';
  readonly ns: number;
}
/**
 * Arrays have value semantics: each variable, map slot or element owns its array. `owned` is set
 * when an array is stored; storing an owned array again copies it (see `adopt`).
 */
export interface ArrV {
  readonly k: 'array';
  a: Value[];
  owned: boolean;
}
/** A persistent map, only ever passed to len/keys/has_key (the parser checks). */
export interface MapV {
  readonly k: 'map';
  readonly name: string;
  readonly m: Map<string, Value>;
}

export type Value = null | boolean | string | IntV | FloatV | IpV | TimeV | DurV | ArrV | MapV;

export const int = (v: number, t: IntKind = 'int'): IntV => ({ k: 'int', v, t });
export const float = (v: number): FloatV => ({ k: 'float', v });
export const time = (us: number): TimeV => ({ k: 'time', us });
export const dur = (ns: number): DurV => ({ k: 'dur', ns });
export const arr = (a: Value[]): ArrV => ({ k: 'array', a, owned: false });

export function isObj<K extends string>(v: Value, k: K): v is Extract<Value, { k: K }> {
  return v !== null && typeof v === 'object' && v.k === k;
}

/** The name `type()` returns. */
export function typeName(v: Value): string {
  if (v === null) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  switch (v.k) {
    case 'int':
      return v.t;
    case 'float':
      return 'float';
    case 'ip':
      return 'ip';
    case 'time':
      return 'time';
    case 'dur':
      return 'duration';
    case 'array':
      return 'array';
    case 'map':
      return 'map';
  }
}

/** Truthiness: false, the zero value of a type, and no value are false. */
export function truthy(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v !== '';
  switch (v.k) {
    case 'int':
    case 'float':
      return v.v !== 0;
    case 'dur':
      return v.ns !== 0;
    case 'time':
      return v.us !== 0;
    case 'ip':
      return v.b.some((x) => x !== 0);
    case 'array':
      return v.a.length > 0;
    case 'map':
      return v.m.size > 0;
  }
}

/** Nesting depth of an array (1 for a flat one), counted no further than `cap + 1`. */
export function arrayDepth(v: ArrV, cap: number): number {
  let d = 0;
  if (cap > 0) for (const x of v.a) if (isObj(x, 'array')) d = Math.max(d, arrayDepth(x, cap - 1));
  return d + 1;
}

/** Total elements of an array, nested arrays included (for size limits and copy costs). */
export function leafCount(v: ArrV): number {
  let n = 0;
  for (const x of v.a) n += isObj(x, 'array') ? 1 + leafCount(x) : 1;
  return n;
}

/** Deep copy of an array (the caller charges the work: leafCount). */
export function copyArray(v: ArrV): ArrV {
  return arr(v.a.map((x) => (isObj(x, 'array') ? adoptCopy(x) : x)));
}

function adoptCopy(x: ArrV): ArrV {
  const c = copyArray(x);
  c.owned = true;
  return c;
}

/**
 * Prepares a value for storing in a variable, map or array: an array somebody else owns is
 * copied; a fresh one is taken over. Returns the array's element count (the work done) too.
 */
export function adopt(v: Value): { value: Value; work: number } {
  if (!isObj(v, 'array')) return { value: v, work: 0 };
  if (!v.owned) {
    v.owned = true;
    return { value: v, work: 0 };
  }
  return { value: adoptCopy(v), work: leafCount(v) };
}

/** Approximate bytes a value holds (persistent state accounting). */
export function approxBytes(v: Value): number {
  if (typeof v === 'string') return 16 + 2 * v.length;
  if (isObj(v, 'array')) return v.a.reduce<number>((n, x) => n + approxBytes(x), 16);
  if (isObj(v, 'ip')) return 32 + v.b.length;
  return 16;
}
