/** `regex [-e EV] [-p | -v] "(?P<name>...)" [name op value ...]`: named captures become EVs; -v keeps the entries that do not match. */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { Re2SyntaxError, translateRe2 } from '../re2';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, readFlags, sourceText, storeExtracted } from './extract-common';

/**
 * Compiles a user pattern once, read as RE2 reads it (re2.ts): RE2's errors with the offset in
 * the pattern, RE2's meaning otherwise. Constructs RE2 lacks (backreferences, lookarounds) are
 * its errors too, and they are what V8 could only backtrack on.
 */
export function compileUserRegex(pattern: string): RegExp {
  let source: string;
  try {
    source = translateRe2(pattern).source;
  } catch (err) {
    if (err instanceof Re2SyntaxError) throw new ModuleArgError(`invalid regular expression: ${err.message}`);
    throw err;
  }
  try {
    return new RegExp(source);
  } catch {
    throw new ModuleArgError('invalid regular expression: this expression cannot be run here (RE2 syntax)');
  }
}

function groupNames(re: RegExp): string[] {
  const names: string[] = [];
  for (const m of re.source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)) names.push(m[1]);
  return names;
}

export const regexModule: ModuleDef = {
  name: 'regex',
  info: 'Extract named capture groups of a regular expression into enumerated values; non-matching entries are dropped unless -p; -v keeps only the entries that do not match',
  examples: ['regex "user=(?P<user>\\S+)"', 'regex -e msg `(?P<code>\\d{3})` code=="404"', 'regex -v "GET /health"'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(
      r,
      { e: 'value', p: 'bool', v: 'bool' },
      {
        r: { kind: 'value', what: 'reading the expression from a resource' },
        a: { kind: 'bool', what: 'array mode: every match into array values' },
      },
    );
    const ev = optionalString(flags.e);
    const permissive = flags.p === true;
    const invert = flags.v === true;
    if (invert && permissive) throw new ModuleArgError('-v and -p cannot be used together');
    const re = compileUserRegex(r.value('regular expression argument'));
    const names = groupNames(re);
    if (invert) {
      if (!r.done) throw new ModuleArgError('filters cannot be used with -v');
      return {
        produced: [],
        consumed: consumedOf(ev),
        process(e, rt) {
          const text = sourceText(e, ev, rt);
          return text !== undefined && !re.test(text); // like grep -v -e: an entry lacking the EV is dropped
        },
      };
    }
    if (names.length === 0) throw new ModuleArgError('regular expression has no named capture groups (?P<name>...)');
    const filters = readExtractItems(r, (n) => n);
    for (const f of filters) {
      if (!names.includes(f.source)) throw new ModuleArgError(`filter on unknown capture group "${f.source}"`);
    }
    // one item per group; filters/aliases given after the pattern refine them
    const items = names.map((n) => filters.find((f) => f.source === n) ?? { source: n, name: n });
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const m = text === undefined ? null : re.exec(text);
        if (!m) return permissive && !items.some((it) => it.filter);
        return storeExtracted(e, items, (it) => m.groups?.[it.source]);
      },
    };
  },
};
