/** Convenience built-ins: has, in, len, type, printf, delete, append, keys, unix, match... */
import { compileUserRegex } from '../../modules/regex';
import { Expr } from '../ast';
import { toIp, toTime } from '../convert';
import { EvalSyntaxError } from '../errors';
import { ipInCidr } from '../ip';
import { equal } from '../ops';
import { printf } from '../printf';
import { arr, int, isObj, typeName } from '../value';
import { text } from './args';
import { Builtin } from './registry';

function literalRegex(args: Expr[], at: number, pos: number): void {
  const p = args[at];
  if (p?.t !== 'lit' || typeof p.v !== 'string') return;
  try {
    compileUserRegex(p.v);
  } catch (err) {
    throw new EvalSyntaxError(`match(): ${(err as Error).message}`, pos);
  }
}

export const MISC: Builtin[] = [
  {
    name: 'has',
    sig: 'has(name) bool',
    min: 1,
    max: 1,
    nameArg: true,
    fn: ([n], ctx) => n !== null && ctx.readName(text(n)!) !== null,
  },
  {
    name: 'delete',
    sig: 'delete(name)',
    min: 1,
    max: 1,
    nameArg: true,
    fn([n], ctx) {
      if (n !== null) ctx.deleteName(text(n)!);
      return null;
    },
  },
  {
    name: 'has_key',
    sig: 'has_key(map, key) bool',
    min: 2,
    max: 2,
    mapArg: 'must',
    fn: ([m, k]) => isObj(m, 'map') && k !== null && m.m.has(text(k)!),
  },
  {
    name: 'keys',
    sig: 'keys(map) array',
    min: 1,
    max: 1,
    mapArg: 'must',
    fn: ([m]) => (isObj(m, 'map') ? arr([...m.m.keys()]) : null),
  },
  {
    name: 'in',
    sig: 'in(value, candidates...) bool',
    min: 2,
    max: Infinity,
    fn: ([v, ...cands]) => cands.some((c) => (isObj(c, 'array') ? c.a.some((x) => equal(v, x)) : equal(v, c))),
  },
  {
    name: 'len',
    sig: 'len(x) int',
    min: 1,
    max: 1,
    mapArg: 'may',
    fn([v]) {
      if (v === null) return int(0);
      if (isObj(v, 'array')) return int(v.a.length);
      if (isObj(v, 'map')) return int(v.m.size);
      return int(text(v)!.length);
    },
  },
  { name: 'type', sig: 'type(x) string', min: 1, max: 1, fn: ([v]) => typeName(v) },
  {
    name: 'append',
    sig: 'append(array, value)',
    min: 2,
    max: 2,
    fn: () => null, // done by the interpreter: it changes the variable in place
  },
  {
    name: 'unix',
    sig: 'unix(time) int',
    min: 1,
    max: 1,
    fn([v]) {
      const t = toTime(v);
      return isObj(t, 'time') ? int(Math.floor(t.us / 1e6)) : null;
    },
  },
  {
    name: 'match',
    sig: 'match(input, regex) bool',
    min: 2,
    max: 2,
    check: (args, pos) => literalRegex(args, 1, pos),
    fn([s, p], ctx) {
      if (s === null || p === null) return false;
      const re = ctx.regex(text(p)!);
      return re === null ? null : re.test(text(s)!);
    },
  },
  { name: 'printf', sig: 'printf(format, values...) string', min: 1, max: Infinity, fn: ([f, ...rest]) => (f === null ? null : printf(text(f)!, rest)) },
  {
    name: 'set_data',
    sig: 'set_data(value)',
    min: 1,
    max: 1,
    fn([v], ctx) {
      if (v !== null) ctx.setData(Buffer.from(text(v)!, 'utf8'));
      return null;
    },
  },
  { name: 'evs', sig: 'evs() array', min: 0, max: 0, fn: (_a, ctx) => arr(ctx.evNames()) },
  {
    name: 'indirect',
    sig: 'indirect(name)',
    min: 1,
    max: 1,
    fn([n], ctx) {
      if (n === null) return null;
      const v = ctx.readName(text(n)!);
      return v ?? text(n);
    },
  },
  {
    name: 'ip_in_cidr',
    sig: 'ip_in_cidr(ip, cidr) bool',
    min: 2,
    max: 2,
    fn([ip, c]) {
      const a = toIp(ip);
      return a === null || c === null ? null : ipInCidr(a, text(c)!);
    },
  },
];
