/** `json [-e EV] [-s] path.to.x [op value] [as name] ...` */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { EVValue, ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';

type Seg = string | number;

/** `a.b.[0]`, `a.b[0]`, `a.[0].c` -> ['a','b',0] etc. */
export function parseJsonPath(path: string): Seg[] {
  const segs: Seg[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || (m[1] === '' && m[2] === '')) throw new ModuleArgError(`invalid path "${path}"`);
    if (m[1] !== '') segs.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) segs.push(Number(idx[1]));
  }
  return segs;
}

function defaultName(path: string): string {
  const names = parseJsonPath(path).filter((s): s is string => typeof s === 'string');
  return names.length ? names[names.length - 1] : path;
}

function walk(doc: unknown, segs: Seg[]): EVValue | undefined {
  let cur: unknown = doc;
  for (const s of segs) {
    if (typeof s === 'number') {
      if (!Array.isArray(cur) || s >= cur.length) return undefined;
      cur = cur[s];
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
      cur = (cur as Record<string, unknown>)[s];
    }
  }
  if (cur === undefined || cur === null) return undefined;
  if (typeof cur === 'string' || typeof cur === 'number' || typeof cur === 'boolean') return cur;
  return JSON.stringify(cur);
}

export const jsonModule: ModuleDef = {
  name: 'json',
  info: 'Extract JSON fields (dotted paths, array indexes) into enumerated values, with optional inline filters; -s drops entries missing a field',
  examples: ['json user.name as name', 'json -e payload a.[0].b', 'json level=="error" code>=500', 'json -s FOO!=""'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', s: 'bool' }, { x: { kind: 'value', what: 'expanding an array into several entries' } });
    const strict = flags.s === true;
    const ev = optionalString(flags.e);
    const items = requireItems(readExtractItems(r, defaultName), 'field');
    const paths = new Map(items.map((it) => [it, parseJsonPath(it.source)]));
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        let doc: unknown;
        try {
          doc = text === undefined ? undefined : JSON.parse(text);
        } catch {
          doc = undefined;
        }
        return storeExtracted(e, items, (it) => (doc === undefined ? undefined : walk(doc, paths.get(it)!)), strict);
      },
    };
  },
};
