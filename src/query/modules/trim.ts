/**
 * The six trim modules of the product's page: `trim|trimleft|trimright EV "cutset"`,
 * `trimprefix EV "prefix"`, `trimsuffix EV "suffix"` (or `-e other` to read the cutset, prefix or
 * suffix from another enumerated value) and `trimspace EV`, as Go's strings functions do.
 */
import { isUtf8 } from 'node:buffer';
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue, ModuleArgError } from '../types';
import { evToString } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { checkName, readValue, valueBytes, writeValue } from './transform-common';

type Kind = 'trim' | 'trimleft' | 'trimright' | 'trimprefix' | 'trimsuffix' | 'trimspace';

/** Go's unicode.IsSpace. */
const SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\p{Z}';
const LEADING_SPACE = new RegExp(`^[${SPACE}]+`, 'u');
const TRAILING_SPACE = new RegExp(`[${SPACE}]+$`, 'u');

/** Applies the operation to text; `arg` is the cutset, prefix or suffix. */
export function trimText(kind: Kind, s: string, arg: string): string {
  switch (kind) {
    case 'trimspace':
      return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
    case 'trimprefix':
      return arg !== '' && s.startsWith(arg) ? s.slice(arg.length) : s;
    case 'trimsuffix':
      return arg !== '' && s.endsWith(arg) ? s.slice(0, s.length - arg.length) : s;
    case 'trim':
    case 'trimleft':
    case 'trimright':
      return trimSet(kind, s, arg);
  }
}

function trimSet(kind: 'trim' | 'trimleft' | 'trimright', s: string, arg: string): string {
  const cut = new Set(arg);
  const chars = [...s];
  let a = 0;
  let b = chars.length;
  if (kind !== 'trimright') while (a < b && cut.has(chars[a])) a++;
  if (kind !== 'trimleft') while (b > a && cut.has(chars[b - 1])) b--;
  return a === 0 && b === chars.length ? s : chars.slice(a, b).join('');
}

/** Text values change as text; bytes that are not UTF-8 change byte by byte (the argument's UTF-8 bytes). */
function trimValue(kind: Kind, v: EVValue, arg: string): EVValue {
  if (!Buffer.isBuffer(v)) return trimText(kind, evToString(v), arg);
  if (isUtf8(v)) return Buffer.from(trimText(kind, v.toString('utf8'), arg), 'utf8');
  return Buffer.from(trimText(kind, v.toString('latin1'), Buffer.from(arg, 'utf8').toString('latin1')), 'latin1');
}

const INFO: Record<Kind, string> = {
  trim: 'Remove the leading and trailing characters found in a set from an enumerated value (trim EV "set", or -e other to read the set from another EV)',
  trimleft: 'Remove the leading characters found in a set from an enumerated value (trimleft EV "set", or -e other)',
  trimright: 'Remove the trailing characters found in a set from an enumerated value (trimright EV "set", or -e other)',
  trimprefix: 'Remove a prefix from an enumerated value when it starts with it (trimprefix EV "prefix", or -e other)',
  trimsuffix: 'Remove a suffix from an enumerated value when it ends with it (trimsuffix EV "suffix", or -e other)',
  trimspace: 'Remove the leading and trailing white space (Unicode) from an enumerated value',
};

const EXAMPLES: Record<Kind, string[]> = {
  trim: ['trim foo "abcd"', 'trim -e bar foo'],
  trimleft: ['trimleft foo "abcd"'],
  trimright: ['trimright foo "abcd"'],
  trimprefix: ['trimprefix foo "Watch out!"'],
  trimsuffix: ['trimsuffix foo "logbot!"'],
  trimspace: ['trimspace foo'],
};

function trimModule(kind: Kind): ModuleDef {
  const what = kind === 'trimprefix' ? 'prefix' : kind === 'trimsuffix' ? 'suffix' : 'set of characters';
  return {
    name: kind,
    info: `${INFO[kind]}; DATA names the entry data; other values are written back as text, bytes that are not UTF-8 change byte by byte`,
    examples: EXAMPLES[kind],
    condensing: false,
    build(args: Token[]): ModuleInstance {
      const r = new ArgReader(args);
      const f = kind === 'trimspace' ? readFlags(r, {}, { e: { kind: 'value', what: 'trimspace has no set to read' } }) : readFlags(r, { e: 'value' });
      const argEV = optionalString(f.e);
      if (argEV === '') throw new ModuleArgError('the -e enumerated value name must not be empty');
      if (r.done) throw new ModuleArgError(`missing enumerated value name, e.g. ${EXAMPLES[kind][0]}`);
      const name = checkName(r.value('enumerated value name'), 'enumerated value name');
      let arg = '';
      if (kind !== 'trimspace' && argEV === undefined) {
        if (r.done) throw new ModuleArgError(`missing ${what} after ${name}, e.g. ${EXAMPLES[kind][0]}`);
        arg = r.value(what);
      }
      r.end();
      return {
        produced: name === 'DATA' ? [] : [name],
        consumed: [name, ...(argEV ? [argEV] : [])].filter((n) => n !== 'DATA'),
        process(e, rt) {
          const v = readValue(e, name, rt);
          if (v === undefined) return true;
          let cut = arg;
          if (argEV !== undefined) {
            const c = readValue(e, argEV, rt);
            if (c === undefined) return true;
            cut = Buffer.isBuffer(c) ? valueBytes(c).toString('utf8') : evToString(c);
          }
          writeValue(e, name, trimValue(kind, v, cut));
          return true;
        },
      };
    },
  };
}

export const trimModules: ModuleDef[] = (['trim', 'trimleft', 'trimright', 'trimprefix', 'trimsuffix', 'trimspace'] as const).map(trimModule);
