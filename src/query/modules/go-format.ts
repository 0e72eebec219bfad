/**
 * Go's fmt verbs over EV values, for `printf` (the product's page lists Go's verbs and flags).
 * Where Go would refuse a value (`%d` of text), numeric text counts as the number and `%s`/`%v`
 * take any value; what is still wrong prints as Go prints it: `%!d(string=abc)`.
 */
import { ModuleArgError, EVValue } from '../types';
import { evToNumber, evToString } from '../values';

/** One `%...` directive of a format string. */
export interface Verb {
  verb: string;
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  prec?: number;
}

export type FormatPart = string | Verb;

const VERBS = new Set('vsbcdoOqxXUeEfFgGt'.split(''));
/** Width and precision bound the text one verb writes (a format cannot ask for megabytes per entry). */
export const MAX_WIDTH = 1000;
export const MAX_PRECISION = 100;

/** Splits a format string into text and verbs; refuses what Go would print as an error. */
export function parseFormat(f: string): FormatPart[] {
  const out: FormatPart[] = [];
  let text = '';
  let i = 0;
  while (i < f.length) {
    const c = f[i++];
    if (c !== '%') {
      text += c;
      continue;
    }
    if (f[i] === '%') {
      text += '%';
      i++;
      continue;
    }
    const v: Verb = { verb: '', plus: false, minus: false, sharp: false, space: false, zero: false };
    for (; i < f.length && '+-# 0'.includes(f[i]); i++) {
      if (f[i] === '+') v.plus = true;
      else if (f[i] === '-') v.minus = true;
      else if (f[i] === '#') v.sharp = true;
      else if (f[i] === ' ') v.space = true;
      else v.zero = true;
    }
    const num = (what: string, max: number): number | undefined => {
      const m = /^\d+/.exec(f.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      const n = Number(m[0]);
      if (n > max) throw new ModuleArgError(`${what} ${m[0]} in the format string is too large (at most ${max})`);
      return n;
    };
    if (f[i] === '*' || f[i] === '[') throw new ModuleArgError(`"${f[i]}" in a format verb is not supported: write the width and precision as numbers`);
    v.width = num('width', MAX_WIDTH);
    if (f[i] === '.') {
      i++;
      if (f[i] === '*') throw new ModuleArgError('"*" in a format verb is not supported: write the width and precision as numbers');
      v.prec = num('precision', MAX_PRECISION) ?? 0;
    }
    if (i >= f.length) throw new ModuleArgError('the format string ends inside a verb (write %% for a literal %)');
    const cp = f.codePointAt(i)!;
    const verb = String.fromCodePoint(cp);
    i += verb.length;
    if (!VERBS.has(verb)) throw new ModuleArgError(`unknown verb %${verb} in the format string (verbs: %v %s %b %c %d %o %O %q %x %X %U %e %E %f %F %g %G %t, %% for a literal %)`);
    v.verb = verb;
    if (text) out.push(text);
    text = '';
    out.push(v);
  }
  if (text) out.push(text);
  return out;
}

const runeLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Pads to the width: spaces left (or right with -), zeros when the verb allows them. */
function pad(v: Verb, s: string, zeros = false): string {
  const w = v.width ?? 0;
  const n = runeLength(s);
  if (n >= w) return s;
  if (v.minus) return s + ' '.repeat(w - n);
  if (zeros) {
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(w - n) + s.slice(sign.length);
  }
  return ' '.repeat(w - n) + s;
}

function goType(x: EVValue): string {
  if (typeof x === 'string') return 'string';
  if (typeof x === 'boolean') return 'bool';
  if (Buffer.isBuffer(x)) return '[]uint8';
  return Number.isSafeInteger(x) ? 'int' : 'float64';
}

function badVerb(v: Verb, x: EVValue): string {
  return `%!${v.verb}(${goType(x)}=${typeof x === 'number' ? defaultNumber(x) : evToString(x)})`;
}

function signOf(v: Verb, neg: boolean): string {
  return neg ? '-' : v.plus ? '+' : v.space ? ' ' : '';
}

/** %b %d %o %O %x %X of an integer (any size: a double above 2^53 is an integer). */
function formatInteger(v: Verb, n: bigint): string {
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const base = { b: 2, d: 10, o: 8, O: 8, x: 16, X: 16 }[v.verb as 'd'];
  let digits = abs.toString(base);
  if (v.verb === 'X') digits = digits.toUpperCase();
  let prec = v.prec;
  if (prec === 0 && abs === 0n) digits = '';
  const zeroPad = v.zero && !v.minus && prec === undefined && v.width !== undefined;
  if (zeroPad) prec = v.width! - (neg || v.plus || v.space ? 1 : 0);
  if (prec !== undefined && digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
  let prefix = '';
  if (v.sharp) {
    if (v.verb === 'b') prefix = '0b';
    else if (v.verb === 'o' && digits[0] !== '0') prefix = '0';
    else if (v.verb === 'x') prefix = '0x';
    else if (v.verb === 'X') prefix = '0X';
  }
  if (v.verb === 'O') prefix = '0o';
  return pad({ ...v, zero: false }, signOf(v, neg) + prefix + digits);
}

/** The exact decimal digits of a positive finite double (no trailing zeros) and the position of its decimal point. */
function exactDecimal(a: number): { d: string; dp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = biased === 0 ? frac : frac | (1n << 52n);
  const e = biased === 0 ? -1074 : biased - 1075;
  if (e >= 0) {
    const s = (m << BigInt(e)).toString();
    return { d: s.replace(/0+$/, ''), dp: s.length };
  }
  const s = (m * 5n ** BigInt(-e)).toString(); // a = s / 10^-e
  return { d: s.replace(/0+$/, ''), dp: s.length + e };
}

/** Keeps the first n digits, rounding half to even as Go's strconv does (n may be 0 or less: the number rounds to 0 or to one unit). */
function roundDigits(x: { d: string; dp: number }, n: number): { d: string; dp: number } {
  const { d, dp } = x;
  if (d.length <= n) return x;
  if (n < 0) return { d: '', dp: 0 };
  const next = d[n];
  const up = next > '5' || (next === '5' && (/[1-9]/.test(d.slice(n + 1)) || (n > 0 && Number(d[n - 1]) % 2 === 1)));
  let kept = d.slice(0, n);
  if (!up) return { d: kept.replace(/0+$/, ''), dp: kept.length ? dp : 0 };
  let i = kept.length - 1;
  while (i >= 0 && kept[i] === '9') i--;
  if (i < 0) return { d: '1', dp: dp + 1 };
  kept = kept.slice(0, i) + String(Number(kept[i]) + 1);
  return { d: kept, dp };
}

/** The digits of |x| (no trailing zeros) and the position of the decimal point, rounded to `sig` significant digits (shortest when undefined). */
function decimalDigits(x: number, sig?: number): { d: string; dp: number } {
  if (x === 0) return { d: '', dp: 0 };
  if (sig !== undefined) return roundDigits(exactDecimal(Math.abs(x)), sig);
  const [m, e] = Math.abs(x).toExponential().split('e');
  return { d: m.replace('.', '').replace(/0+$/, ''), dp: Number(e) + 1 };
}

const digitAt = (d: string, i: number): string => (i >= 0 && i < d.length ? d[i] : '0');

function fmtE(d: string, dp: number, prec: number, e: string, sharp: boolean): string {
  let s = d.length ? d[0] : '0';
  if (prec > 0 || sharp) s += '.';
  for (let i = 1; i <= prec; i++) s += digitAt(d, i);
  const exp = d.length ? dp - 1 : 0;
  return `${s}${e}${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

function fmtF(d: string, dp: number, prec: number, sharp: boolean): string {
  let s = '';
  if (dp > 0) for (let i = 0; i < dp; i++) s += digitAt(d, i);
  else s = '0';
  if (prec > 0 || sharp) s += '.';
  for (let i = 0; i < prec; i++) s += digitAt(d, dp + i);
  return s;
}

/** %e %E %f %F %g %G (and %v of a fraction: %g shortest) of a float, as Go's strconv writes it. */
function formatFloat(v: Verb, x: number): string {
  const verb = v.verb === 'v' ? 'g' : v.verb;
  const neg = x < 0 || Object.is(x, -0);
  if (Number.isNaN(x)) return pad(v, `${v.plus ? '+' : v.space ? ' ' : ''}NaN`);
  if (!Number.isFinite(x)) return pad(v, `${x < 0 ? '-' : v.space && !v.plus ? ' ' : '+'}Inf`);
  const a = Math.abs(x);
  let body: string;
  const upper = verb === 'E' || verb === 'G';
  if (verb === 'e' || verb === 'E') {
    const { d, dp } = decimalDigits(a, (v.prec ?? 6) + 1);
    body = fmtE(d, dp, v.prec ?? 6, upper ? 'E' : 'e', v.sharp);
  } else if (verb === 'f' || verb === 'F') {
    const prec = v.prec ?? 6;
    const exact = a === 0 ? { d: '', dp: 0 } : exactDecimal(a);
    const { d, dp } = roundDigits(exact, exact.dp + prec);
    body = fmtF(d, dp, prec, v.sharp);
  } else {
    const shortest = v.prec === undefined;
    let prec = shortest ? -1 : Math.max(v.prec!, 1);
    const { d, dp } = decimalDigits(a, shortest ? undefined : prec);
    if (shortest) prec = d.length;
    let eprec = prec;
    if (eprec > d.length && d.length >= dp) eprec = d.length;
    if (shortest) eprec = 6;
    const exp = dp - 1;
    // `#` keeps trailing zeros up to the precision (6 when none is given), as Go's fmt does
    const sig = shortest ? 6 : prec;
    if (exp < -4 || exp >= eprec) {
      body = fmtE(d, dp, (v.sharp ? sig : Math.min(prec, Math.max(d.length, 1))) - 1, upper ? 'E' : 'e', v.sharp);
    } else if (v.sharp) {
      body = fmtF(d, dp, dp > 0 ? Math.max(sig - dp, 0) : sig - dp, true);
    } else {
      body = fmtF(d, dp, Math.max((prec > dp ? d.length : prec) - dp, 0), false);
    }
  }
  return pad(v, signOf(v, neg) + body, v.zero);
}

/** %v of a number: an integer as one, a fraction as %g (Go's float64 %v). */
function defaultNumber(x: number): string {
  return Number.isSafeInteger(x) ? String(x) : formatFloat({ verb: 'v', plus: false, minus: false, sharp: false, space: false, zero: false }, x);
}

function quoteRune(cp: number, ascii: boolean): string {
  const ch = String.fromCodePoint(cp);
  return `'${quoteText(ch, ascii, "'")}'`;
}

const ESC: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\' };

/** Go's strconv.Quote escaping (printable characters as they are; %+q: ASCII only). */
function quoteText(s: string, ascii: boolean, quote: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote) out += `\\${ch}`;
    else if (ESC[ch]) out += ESC[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x7f || (!ascii && !/[\p{C}\p{Z}]/u.test(ch)))
      out += ch; // Go's IsPrint: no control, format or space but ' '
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return out;
}

function validRune(n: bigint): number {
  return n >= 0n && n <= 0x10ffffn && !(n >= 0xd800n && n <= 0xdfffn) ? Number(n) : 0xfffd;
}

function hexBytes(v: Verb, b: Buffer): string {
  const bytes = v.prec !== undefined ? b.subarray(0, v.prec) : b;
  const hex = [...bytes].map((x) => x.toString(16).padStart(2, '0')).map((h) => (v.verb === 'X' ? h.toUpperCase() : h));
  const prefix = v.sharp ? (v.verb === 'X' ? '0X' : '0x') : '';
  const s = v.space ? hex.map((h) => prefix + h).join(' ') : (hex.length ? prefix : '') + hex.join('');
  return pad(v, s, v.zero);
}

function truncateRunes(s: string, prec: number | undefined): string {
  if (prec === undefined) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    if (n++ >= prec) break;
    out += ch;
  }
  return out;
}

/** Formats one value under one verb. */
export function formatValue(v: Verb, x: EVValue): string {
  const isText = typeof x === 'string' || Buffer.isBuffer(x);
  switch (v.verb) {
    case 's':
      return pad(v, truncateRunes(evToString(x), v.prec), v.zero);
    case 'v':
      if (typeof x === 'number' && !Number.isSafeInteger(x)) return formatFloat(v, x);
      if (typeof x === 'number') return formatInteger({ ...v, verb: 'd' }, BigInt(x));
      return pad(v, truncateRunes(evToString(x), v.prec), v.zero);
    case 't':
      return typeof x === 'boolean' ? pad(v, String(x)) : badVerb(v, x);
    case 'q':
      if (isText) {
        const s = truncateRunes(evToString(x), v.prec);
        if (v.sharp && !/[`\x00-\x08\x0a-\x1f\x7f\ufeff]/.test(s)) return pad(v, `\`${s}\``);
        return pad(v, `"${quoteText(s, v.plus, '"')}"`);
      }
      break;
    case 'x':
    case 'X':
      if (isText) return hexBytes(v, Buffer.isBuffer(x) ? x : Buffer.from(x, 'utf8'));
      break;
  }
  const n = typeof x === 'number' ? x : typeof x === 'string' ? evToNumber(x) : null;
  if (n === null) return badVerb(v, x);
  switch (v.verb) {
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      return formatFloat(v, n);
  }
  if (!Number.isInteger(n)) return badVerb(v, x);
  const big = BigInt(n);
  switch (v.verb) {
    case 'c':
      return pad(v, String.fromCodePoint(validRune(big)));
    case 'q':
      return pad(v, quoteRune(validRune(big), v.plus));
    case 'U': {
      const cp = big < 0n ? -big : big;
      let s = `U+${cp
        .toString(16)
        .toUpperCase()
        .padStart(Math.max(v.prec ?? 4, 4), '0')}`;
      if (v.sharp && validRune(big) === Number(big) && !/[\p{C}]/u.test(String.fromCodePoint(Number(big)))) s += ` '${String.fromCodePoint(Number(big))}'`;
      return pad(v, s);
    }
    default:
      return formatInteger(v, big);
  }
}

/** The formatted text; undefined when a value is missing, null when the text would pass `max` characters. */
export function formatAll(parts: FormatPart[], values: Array<EVValue | undefined>, max = Infinity): string | undefined | null {
  let out = '';
  let a = 0;
  for (const p of parts) {
    if (typeof p === 'string') {
      out += p;
    } else {
      const x = values[a++];
      if (x === undefined) return undefined;
      out += formatValue(p, x);
    }
    if (out.length > max) return null;
  }
  return out;
}
