/** strings_* and pretty_* built-ins (Go's strings package semantics). */
import { Value, int, isObj } from '../value';
import { toDuration } from '../convert';
import { integer, num, text, textFn } from './args';
import { Builtin } from './registry';

function trimSet(s: string, cutset: string, left: boolean, right: boolean): string {
  const chars = new Set(Array.from(cutset));
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  while (left && a < b && chars.has(cps[a])) a++;
  while (right && b > a && chars.has(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
}

function count(s: string, sub: string): number {
  if (sub === '') return Array.from(s).length + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

function replace(s: string, old: string, rep: string, n: number): string {
  if (n === 0 || old === rep) return s;
  if (old === '') {
    // Go: matches at the start and after each character
    const cps = Array.from(s);
    let out = '';
    let done = 0;
    for (let i = 0; i <= cps.length; i++) {
      if (n < 0 || done < n) {
        out += rep;
        done++;
      }
      if (i < cps.length) out += cps[i];
    }
    return out;
  }
  let out = '';
  let at = 0;
  for (let done = 0; n < 0 || done < n; done++) {
    const i = s.indexOf(old, at);
    if (i < 0) break;
    out += s.slice(at, i) + rep;
    at = i + old.length;
  }
  return out + s.slice(at);
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
const COUNT_UNITS = ['', 'K', 'M', 'G', 'T', 'P', 'E'];

/** 1234567 -> "1.18 MB" (base 1024); 1234567 -> "1.23 M" (base 1000). */
function pretty(n: number, base: number, units: string[], small: (n: number) => string): string {
  let i = 0;
  let v = n;
  while (Math.abs(v) >= base && i < units.length - 1) {
    v /= base;
    i++;
  }
  return i === 0 ? small(n) : `${v.toFixed(2)} ${units[i]}`;
}

function rateFn(name: string, bits: boolean): Builtin {
  return {
    name,
    sig: `${name}(count, duration) string`,
    min: 2,
    max: 2,
    fn([n, d]): Value {
      const x = num(n);
      const dv = toDuration(d);
      if (x === null || !isObj(dv, 'dur') || dv.ns <= 0) return null;
      const perSec = (x * (bits ? 8 : 1)) / (dv.ns / 1e9);
      const units = bits ? ['b/s', 'Kb/s', 'Mb/s', 'Gb/s', 'Tb/s'] : ['B/s', 'KB/s', 'MB/s', 'GB/s', 'TB/s'];
      return pretty(perSec, 1024, units, (v) => `${v.toFixed(2)} ${units[0]}`);
    },
  };
}

export const STRINGS: Builtin[] = [
  textFn('strings_count', 'strings_count(s, sub) int', 2, ([s, sub]) => int(count(s, sub))),
  textFn('strings_hasprefix', 'strings_hasprefix(s, prefix) bool', 2, ([s, p]) => s.startsWith(p)),
  textFn('strings_hassuffix', 'strings_hassuffix(s, suffix) bool', 2, ([s, p]) => s.endsWith(p)),
  textFn('strings_index', 'strings_index(s, sub) int', 2, ([s, sub]) => int(s.indexOf(sub))),
  {
    name: 'strings_replace',
    sig: 'strings_replace(s, old, new, n) string',
    min: 4,
    max: 4,
    fn([s, o, r, n]) {
      const k = integer(n);
      const t = [s, o, r].map(text);
      if (k === null || t.includes(null)) return null;
      return replace(t[0]!, t[1]!, t[2]!, k);
    },
  },
  textFn('strings_tolower', 'strings_tolower(s) string', 1, ([s]) => s.toLowerCase()),
  textFn('strings_toupper', 'strings_toupper(s) string', 1, ([s]) => s.toUpperCase()),
  textFn('strings_totitle', 'strings_totitle(s) string', 1, ([s]) => s.toUpperCase()),
  textFn('strings_trim', 'strings_trim(s, cutset) string', 2, ([s, c]) => trimSet(s, c, true, true)),
  textFn('strings_trimleft', 'strings_trimleft(s, cutset) string', 2, ([s, c]) => trimSet(s, c, true, false)),
  textFn('strings_trimright', 'strings_trimright(s, cutset) string', 2, ([s, c]) => trimSet(s, c, false, true)),
  textFn('strings_trimprefix', 'strings_trimprefix(s, prefix) string', 2, ([s, p]) => (p && s.startsWith(p) ? s.slice(p.length) : s)),
  textFn('strings_trimsuffix', 'strings_trimsuffix(s, suffix) string', 2, ([s, p]) => (p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s)),
  textFn('strings_trimspace', 'strings_trimspace(s) string', 1, ([s]) => s.trim()),
  {
    name: 'pretty_size',
    sig: 'pretty_size(bytes) string',
    min: 1,
    max: 1,
    fn: ([n]) => (num(n) === null ? null : pretty(num(n)!, 1024, SIZE_UNITS, (v) => `${v} B`)),
  },
  {
    name: 'pretty_count',
    sig: 'pretty_count(n) string',
    min: 1,
    max: 1,
    fn: ([n]) => (num(n) === null ? null : pretty(num(n)!, 1000, COUNT_UNITS, (v) => String(v))),
  },
  rateFn('pretty_rate', false),
  rateFn('pretty_line_rate', true),
];
