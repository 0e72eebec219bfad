/** Integer types of eval: widths, wrapping and the C "usual arithmetic conversions". */
import { IntKind } from './value';

interface IntInfo {
  bits: number;
  signed: boolean;
  rank: number;
}

const INFO: Record<IntKind, IntInfo> = {
  int8: { bits: 8, signed: true, rank: 1 },
  uint8: { bits: 8, signed: false, rank: 1 },
  int16: { bits: 16, signed: true, rank: 2 },
  uint16: { bits: 16, signed: false, rank: 2 },
  int32: { bits: 32, signed: true, rank: 3 },
  uint32: { bits: 32, signed: false, rank: 3 },
  int: { bits: 64, signed: true, rank: 4 },
  uint64: { bits: 64, signed: false, rank: 4 },
};

/** Cast names that make integers, mapped to their kind. */
export const INT_CASTS: Record<string, IntKind> = {
  int: 'int',
  int64: 'int',
  int8: 'int8',
  int16: 'int16',
  int32: 'int32',
  uint8: 'uint8',
  byte: 'uint8',
  uint16: 'uint16',
  uint32: 'uint32',
  uint64: 'uint64',
};

const TWO64 = 2 ** 64;

/** Wraps an integer into the range of its kind (64-bit kinds are exact within ±2^53 only). */
export function wrapInt(v: number, t: IntKind): number {
  const { bits, signed } = INFO[t];
  if (bits === 64) {
    if (signed) return v;
    return v < 0 ? v + TWO64 : v;
  }
  const mod = 2 ** bits;
  let r = ((v % mod) + mod) % mod;
  if (signed && r >= mod / 2) r -= mod;
  return r;
}

/** The common type of two integer operands (C11 rank rules as the product describes them). */
export function commonIntKind(a: IntKind, b: IntKind): IntKind {
  if (a === b) return a;
  const x = INFO[a];
  const y = INFO[b];
  if (x.signed === y.signed) return x.rank >= y.rank ? a : b;
  const [u, s, uk, sk] = x.signed ? [y, x, b, a] : [x, y, a, b];
  if (u.rank >= s.rank) return uk;
  return sk; // the signed type is wider, so it holds every value of the unsigned one
}

export function isUnsigned(t: IntKind): boolean {
  return !INFO[t].signed;
}

export function intBits(t: IntKind): number {
  return INFO[t].bits;
}
