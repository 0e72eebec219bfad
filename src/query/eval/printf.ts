/**
 * printf with Go's fmt verbs: %v %s %q %d %b %o %x %X %c %U %t %e %E %f %F %g %G %T %%, flags
 * `- + # 0 space`, width and precision (also `*`). Numeric verbs accept numeric text as well.
 * Widths above 10000 are cut to 10000; the result obeys the string length limit.
 */
import { numeric, toFloat, toStr } from './convert';
import { goExp, goFloat, goG, toFixedFull } from './gofloat';
import { EvalRuntimeError, maxStringLength } from './limits';
import { isObj, typeName, Value } from './value';

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number;
  prec: number;
}

const MAX_WIDTH = 10_000;

const bad = (verb: string, v: Value): string => (v === null ? `%!${verb}(<nil>)` : `%!${verb}(${typeName(v)}=${toStr(v)})`);

function pad(s: string, sp: Spec, numericText: boolean): string {
  const w = Math.min(sp.width, MAX_WIDTH);
  if (w <= s.length) return s;
  const fill = w - s.length;
  if (sp.minus) return s + ' '.repeat(fill);
  if (sp.zero && numericText) {
    const sign = /^[-+ ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(fill) + s.slice(sign.length);
  }
  return ' '.repeat(fill) + s;
}

function signed(neg: boolean, digits: string, sp: Spec): string {
  return (neg ? '-' : sp.plus ? '+' : sp.space ? ' ' : '') + digits;
}

function integerVerb(verb: string, v: Value, sp: Spec): string | null {
  const n = numeric(v);
  if (!n || !Number.isFinite(n.v)) return null;
  const x = Math.trunc(n.v);
  const base = verb === 'b' ? 2 : verb === 'o' ? 8 : verb === 'x' || verb === 'X' ? 16 : 10;
  let digits = (x < 0 ? BigInt(-x) : BigInt(x)).toString(base);
  if (verb === 'X') digits = digits.toUpperCase();
  if (sp.prec >= 0) digits = digits.padStart(Math.min(sp.prec, MAX_WIDTH), '0');
  if (sp.sharp) digits = (verb === 'x' ? '0x' : verb === 'X' ? '0X' : verb === 'o' ? '0' : verb === 'b' ? '0b' : '') + digits;
  return signed(x < 0, digits, sp);
}

function floatVerb(verb: string, v: Value, sp: Spec): string | null {
  const f = toFloat(typeof v === 'boolean' ? null : v);
  if (!f) return null;
  const x = f.v;
  const prec = sp.prec;
  let body: string;
  if (verb === 'e' || verb === 'E') body = goExp(Math.abs(x), prec < 0 ? 6 : prec, verb === 'E');
  else if (verb === 'f' || verb === 'F') body = Number.isFinite(x) ? toFixedFull(Math.abs(x), prec < 0 ? 6 : prec) : goFloat(Math.abs(x));
  else body = goG(Math.abs(x), prec, verb === 'G');
  if (Number.isNaN(x)) return body;
  return signed(x < 0 || Object.is(x, -0), body.replace(/^\+/, ''), sp);
}

function one(verb: string, v: Value, sp: Spec): string {
  if ((verb === 'x' || verb === 'X') && typeof v === 'string' && !numeric(v)) {
    const hex = Buffer.from(v, 'utf8').toString('hex');
    return pad(verb === 'X' ? hex.toUpperCase() : hex, sp, false);
  }
  switch (verb) {
    case 'v':
      if (isObj(v, 'float')) return pad(sp.prec >= 0 ? goG(v.v, sp.prec) : floatVerb('g', v, sp)!, sp, true);
      if (isObj(v, 'int')) return pad(integerVerb('d', v, sp)!, sp, true);
      return pad(toStr(v), sp, false);
    case 's':
    case 'q': {
      if (v === null) return bad(verb, v);
      let s = toStr(v);
      if (sp.prec >= 0) s = Array.from(s).slice(0, sp.prec).join('');
      return pad(verb === 'q' ? JSON.stringify(s) : s, sp, false);
    }
    case 't':
      return typeof v === 'boolean' ? pad(String(v), sp, false) : bad(verb, v);
    case 'T':
      return pad(typeName(v), sp, false);
    case 'c':
    case 'U': {
      const n = numeric(v);
      if (!n || !Number.isInteger(n.v) || n.v < 0 || n.v > 0x10ffff) return bad(verb, v);
      return pad(verb === 'c' ? String.fromCodePoint(n.v) : `U+${n.v.toString(16).toUpperCase().padStart(4, '0')}`, sp, false);
    }
    case 'x':
    case 'X':
    case 'd':
    case 'b':
    case 'o': {
      const s = integerVerb(verb, v, sp);
      return s === null ? bad(verb, v) : pad(s, sp, true);
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      const s = floatVerb(verb, v, sp);
      return s === null ? bad(verb, v) : pad(s, sp, true);
    }
    default:
      return bad(verb, v);
  }
}

function readInt(f: string, i: number): [number, number] {
  let j = i;
  while (j < f.length && f[j] >= '0' && f[j] <= '9') j++;
  return [j > i ? Math.min(Number(f.slice(i, j)), MAX_WIDTH) : -1, j];
}

export function printf(format: string, args: Value[]): string {
  const max = maxStringLength();
  let out = '';
  let ai = 0;
  let i = 0;
  const star = (): number => {
    const n = numeric(args[ai++] ?? null);
    return n ? Math.min(Math.trunc(n.v), MAX_WIDTH) : -1;
  };
  while (i < format.length) {
    if (out.length > max) throw new EvalRuntimeError(`printf() result is longer than ${max} characters (the string limit)`);
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const sp: Spec = { minus: false, plus: false, sharp: false, space: false, zero: false, width: -1, prec: -1 };
    for (; i < format.length && '-+# 0'.includes(format[i]); i++) {
      const k = ({ '-': 'minus', '+': 'plus', '#': 'sharp', ' ': 'space', '0': 'zero' } as const)[format[i] as '-'];
      sp[k] = true;
    }
    if (format[i] === '*') {
      sp.width = star();
      if (sp.width < 0) [sp.minus, sp.width] = [true, -sp.width];
      i++;
    } else [sp.width, i] = readInt(format, i);
    if (format[i] === '.') {
      i++;
      if (format[i] === '*') {
        sp.prec = star();
        i++;
      } else {
        [sp.prec, i] = readInt(format, i);
        if (sp.prec < 0) sp.prec = 0;
      }
    }
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = format[i++];
    if (verb === '%') out += '%';
    else if (ai >= args.length) out += `%!${verb}(MISSING)`;
    else out += one(verb, args[ai++], sp);
  }
  if (ai < args.length)
    out += `%!(EXTRA ${args
      .slice(ai)
      .map((a) => `${typeName(a)}=${toStr(a)}`)
      .join(', ')})`;
  if (out.length > max) throw new EvalRuntimeError(`printf() result is longer than ${max} characters (the string limit)`);
  return out;
}
