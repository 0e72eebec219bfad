/** Inline filters on extracted EVs: `name op value`, ops == != < > <= >= ~ !~. */
import { EVValue } from './types';
import { compareValues, evToNumber, evToString } from './values';

export const FILTER_OPS = ['==', '!=', '<', '>', '<=', '>=', '~', '!~'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface InlineFilter {
  op: FilterOp;
  value: string;
}

export function isFilterOp(s: string): s is FilterOp {
  return (FILTER_OPS as readonly string[]).includes(s);
}

/** Evaluates a filter against an extracted value; a missing value never passes. */
export function testFilter(f: InlineFilter, v: EVValue | undefined): boolean {
  if (v === undefined) return false;
  switch (f.op) {
    case '~':
      return evToString(v).includes(f.value);
    case '!~':
      return !evToString(v).includes(f.value);
    case '==':
      return equals(v, f.value);
    case '!=':
      return !equals(v, f.value);
    default: {
      const c = compareValues(v, f.value);
      if (f.op === '<') return c < 0;
      if (f.op === '>') return c > 0;
      if (f.op === '<=') return c <= 0;
      return c >= 0;
    }
  }
}

function equals(v: EVValue, want: string): boolean {
  const a = evToNumber(v);
  const b = evToNumber(want);
  if (a !== null && b !== null) return a === b;
  return evToString(v) === want;
}
