/**
 * Operators with the product's type promotion: if either operand is an IP, time, duration, float
 * or integer (in that order), the other is converted to that type when it can be; integers then
 * follow the C rank rules. Arithmetic with no value, or on types that do not fit, gives no value;
 * comparisons with no value are false (all of them, `!=` too), as inline filters are.
 */
import { compareIp } from './ip';
import { commonIntKind, intBits, isUnsigned, wrapInt } from './intkinds';
import { numeric, toDuration, toIp, toStr, toTime } from './convert';
import { isValidTime } from './timefmt';
import { dur, float, int, IntV, isObj, time, Value } from './value';

export type ArithOp = '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '<<' | '>>';
export type CompareOp = '==' | '!=' | '<' | '>' | '<=' | '>=' | '~' | '!~';

type Kind = 'ip' | 'time' | 'dur' | 'float' | 'int';

const kindOf = (v: Value, k: Kind): boolean => v !== null && typeof v === 'object' && v.k === k;

function convertTo(k: Kind, v: Value): Value {
  switch (k) {
    case 'ip':
      return typeof v === 'string' ? toIp(v) : null;
    case 'time':
      return typeof v === 'string' || isObj(v, 'int') || isObj(v, 'float') ? (toTime(v) ?? (typeof v === 'string' ? toDuration(v) : null)) : null;
    case 'dur':
      return typeof v === 'string' ? toDuration(v) : null;
    case 'float': {
      if (isObj(v, 'int')) return float(v.v);
      const n = typeof v === 'string' ? numeric(v) : null;
      return n && float(n.v);
    }
    case 'int':
      return typeof v === 'string' ? numeric(v) : null;
  }
}

/** Promotes the pair to a common type where possible; otherwise returns them unchanged. */
export function promote(a: Value, b: Value): [Value, Value] {
  for (const k of ['ip', 'time', 'dur', 'float', 'int'] as const) {
    const ka = kindOf(a, k);
    const kb = kindOf(b, k);
    if (ka && kb) break;
    if (ka || kb) {
      const other = convertTo(k, ka ? b : a);
      if (other === null) return [a, b];
      [a, b] = ka ? [a, other] : [other, b];
      // an int meeting a float string ("2.5") goes on to the float rule
      if (k === 'int' && (isObj(a, 'float') || isObj(b, 'float'))) return promote(a, b);
      break;
    }
  }
  return [a, b];
}

function intArith(op: ArithOp, a: IntV, b: IntV): Value {
  const t = commonIntKind(a.t, b.t);
  const x = a.v;
  const y = b.v;
  switch (op) {
    case '+':
      return int(wrapInt(x + y, t), t);
    case '-':
      return int(wrapInt(x - y, t), t);
    case '*':
      return int(wrapInt(x * y, t), t);
    case '/':
      return y === 0 ? null : int(wrapInt(Math.trunc(x / y), t), t);
    case '%':
      return y === 0 ? null : int(x % y, t);
    default:
      return bitwise(op, x, y, t);
  }
}

function bitwise(op: ArithOp, x: number, y: number, t: IntV['t']): Value {
  if ((op === '<<' || op === '>>') && y < 0) return null;
  const bx = BigInt(x);
  const by = BigInt(y);
  let r: bigint;
  if (op === '&') r = bx & by;
  else if (op === '|') r = bx | by;
  else if (op === '^') r = bx ^ by;
  else if (op === '<<') r = y >= 64 ? 0n : bx << by;
  else r = y >= 64 ? (x < 0 && !isUnsigned(t) ? -1n : 0n) : bx >> by;
  const bits = intBits(t);
  r = isUnsigned(t) ? BigInt.asUintN(bits, r) : BigInt.asIntN(bits, r);
  return int(Number(r), t);
}

function floatArith(op: ArithOp, x: number, y: number): Value {
  switch (op) {
    case '+':
      return float(x + y);
    case '-':
      return float(x - y);
    case '*':
      return float(x * y);
    case '/':
      return y === 0 ? null : float(x / y);
    case '%':
      return y === 0 ? null : float(x % y);
    default:
      return null;
  }
}

const mkTime = (us: number): Value => (isValidTime(us) ? time(Math.round(us)) : null);

function timeArith(op: ArithOp, a: Value, b: Value): Value | undefined {
  const n = (v: Value) => (isObj(v, 'int') || isObj(v, 'float') ? v.v : null);
  if (isObj(a, 'time') && isObj(b, 'dur') && (op === '+' || op === '-')) return mkTime(a.us + (op === '+' ? b.ns : -b.ns) / 1000);
  if (isObj(a, 'dur') && isObj(b, 'time') && op === '+') return mkTime(b.us + a.ns / 1000);
  if (isObj(a, 'time') && isObj(b, 'time') && op === '-') return dur((a.us - b.us) * 1000);
  if (isObj(a, 'dur') && isObj(b, 'dur')) {
    if (op === '+') return dur(a.ns + b.ns);
    if (op === '-') return dur(a.ns - b.ns);
    if (op === '/') return b.ns === 0 ? null : float(a.ns / b.ns);
    if (op === '%') return b.ns === 0 ? null : dur(a.ns % b.ns);
    return null;
  }
  if (isObj(a, 'dur') && n(b) !== null && (op === '*' || op === '/')) {
    if (op === '/') return n(b) === 0 ? null : dur(Math.trunc(a.ns / n(b)!));
    return dur(Math.trunc(a.ns * n(b)!));
  }
  if (isObj(b, 'dur') && n(a) !== null && op === '*') return dur(Math.trunc(b.ns * n(a)!));
  return undefined;
}

/** `a op b` for the arithmetic, bitwise and shift operators. */
export function arith(op: ArithOp, a0: Value, b0: Value): Value {
  if (a0 === null || b0 === null) return null;
  const [a, b] = promote(a0, b0);
  if (isObj(a, 'int') && isObj(b, 'int')) return intArith(op, a, b);
  if ((isObj(a, 'int') || isObj(a, 'float')) && (isObj(b, 'int') || isObj(b, 'float'))) return floatArith(op, a.v, b.v);
  const t = timeArith(op, a, b);
  if (t !== undefined) return t;
  // `+` with text on either side (and no number in it) concatenates
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) return toStr(a) + toStr(b);
  return null;
}

/** Orders two values of one type; undefined when they cannot be ordered. */
function order(a: Value, b: Value): number | undefined {
  if ((isObj(a, 'int') || isObj(a, 'float')) && (isObj(b, 'int') || isObj(b, 'float'))) return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (isObj(a, 'ip') && isObj(b, 'ip')) return compareIp(a, b);
  if (isObj(a, 'time') && isObj(b, 'time')) return a.us - b.us;
  if (isObj(a, 'dur') && isObj(b, 'dur')) return a.ns - b.ns;
  return undefined;
}

/** Equality after promotion (arrays element by element). */
export function equal(a0: Value, b0: Value): boolean {
  if (a0 === null || b0 === null) return false;
  const [a, b] = promote(a0, b0);
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (isObj(a, 'array') && isObj(b, 'array')) return a.a.length === b.a.length && a.a.every((x, i) => equal(x, b.a[i]));
  return order(a, b) === 0;
}

export function compare(op: CompareOp, a: Value, b: Value): boolean {
  if (a === null || b === null) return false;
  switch (op) {
    case '~':
      return toStr(a).includes(toStr(b));
    case '!~':
      return !toStr(a).includes(toStr(b));
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case '<':
    case '<=':
    case '>':
    case '>=':
      break; // ordered: below
  }
  const [x, y] = promote(a, b);
  const c = order(x, y);
  if (c === undefined || Number.isNaN(c)) return false;
  if (op === '<') return c < 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  return c >= 0;
}

export function negate(v: Value): Value {
  if (isObj(v, 'int')) return int(wrapInt(-v.v, v.t), v.t);
  if (isObj(v, 'float')) return float(-v.v);
  if (isObj(v, 'dur')) return dur(-v.ns);
  if (typeof v === 'string') {
    const n = numeric(v);
    return n && negate(n);
  }
  return null;
}
