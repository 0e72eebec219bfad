/** hash_*, base64/hex/html encodings, path_* (Go's path package) and rand_* built-ins. */
import { createHash, randomInt } from 'node:crypto';
import { float, int, Value } from '../value';
import { integer, text, textFn } from './args';
import { pathMatch } from './pathmatch';
import { Builtin } from './registry';

const hash = (algo: string) => textFn(`hash_${algo}`, `hash_${algo}(x) string`, 1, ([s]) => createHash(algo).update(s, 'utf8').digest('hex'));

const HTML_ESC: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&#34;' };
const HTML_NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

function htmlUnescape(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, body: string) => {
    if (body[0] !== '#') return HTML_NAMED[body] ?? m;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/** Go path.Clean. */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else {
      out.push(part);
    }
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}

function pathBase(p: string): string {
  if (p === '') return '.';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

/** Standard normal sample (Box-Muller). */
function normal(): number {
  const u = 1 - Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

export const ENCODING: Builtin[] = [
  hash('md5'),
  hash('sha1'),
  hash('sha256'),
  hash('sha512'),
  textFn('base64_encode', 'base64_encode(s) string', 1, ([s]) => Buffer.from(s, 'utf8').toString('base64')),
  textFn('base64_decode', 'base64_decode(s) string', 1, ([s]) => {
    const t = s.trim();
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) && !/^[A-Za-z0-9_-]*={0,2}$/.test(t)) return null;
    return Buffer.from(t, 'base64').toString('utf8');
  }),
  textFn('hex_encode', 'hex_encode(s) string', 1, ([s]) => Buffer.from(s, 'utf8').toString('hex')),
  textFn('hex_decode', 'hex_decode(s) string', 1, ([s]) => (/^([0-9a-fA-F]{2})*$/.test(s) ? Buffer.from(s, 'hex').toString('utf8') : null)),
  textFn('html_escape', 'html_escape(s) string', 1, ([s]) => s.replace(/[<>&'"]/g, (c) => HTML_ESC[c])),
  textFn('html_unescape', 'html_unescape(s) string', 1, ([s]) => htmlUnescape(s)),
  textFn('path_base', 'path_base(p) string', 1, ([p]) => pathBase(p)),
  textFn('path_clean', 'path_clean(p) string', 1, ([p]) => pathClean(p)),
  textFn('path_dir', 'path_dir(p) string', 1, ([p]) => pathClean(p.slice(0, p.lastIndexOf('/') + 1))),
  textFn('path_ext', 'path_ext(p) string', 1, ([p]) => pathExt(p)),
  textFn('path_isabs', 'path_isabs(p) bool', 1, ([p]) => p.startsWith('/')),
  {
    name: 'path_join',
    sig: 'path_join(elements...) string',
    min: 0,
    max: Infinity,
    fn(args): Value {
      const parts = args.map(text).filter((s): s is string => s !== null && s !== '');
      return parts.length ? pathClean(parts.join('/')) : '';
    },
  },
  textFn('path_match', 'path_match(pattern, name) bool', 2, ([pat, name]) => pathMatch(pat, name)),
  { name: 'rand_float', sig: 'rand_float() float', min: 0, max: 0, fn: () => float(Math.random()) },
  { name: 'rand_int', sig: 'rand_int() int', min: 0, max: 0, fn: () => int(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)) },
  {
    name: 'rand_intn',
    sig: 'rand_intn(n) int',
    min: 1,
    max: 1,
    fn([n]) {
      const k = integer(n);
      return k === null || k <= 0 ? null : int(k <= 2 ** 48 ? randomInt(k) : Math.floor(Math.random() * k));
    },
  },
  { name: 'rand_normal', sig: 'rand_normal() float', min: 0, max: 0, fn: () => float(normal()) },
];
