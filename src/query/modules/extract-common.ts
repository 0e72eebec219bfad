/** Shared pieces of the extraction and filter modules (json, kv, regex, fields, csv, cef, syslog, xml...). */
import { ArgReader, ExtractItem, FlagSpec, Flags } from '../args';
import { FilterOp, testFilter } from '../filter';
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';

/** Text the module reads: DATA, or the EV named by `-e`. Undefined when the EV is missing. */
export function sourceText(e: Entry, ev: string | undefined, rt: RuntimeContext): string | undefined {
  if (ev === undefined) return e.data.toString('utf8');
  const v = getEV(e, ev, rt);
  return v === undefined ? undefined : evToString(v);
}

/** `!=` and `!~`: a field that is not there is not "equal to" nor "containing" anything. */
export function isNegativeOp(op: FilterOp): boolean {
  return op === '!=' || op === '!~';
}

/**
 * Stores the extracted values, or returns false to drop the entry. As the product's pages say:
 * a value failing its filter drops the entry; a missing value drops it when it has a positive
 * filter (`== ~ < ...`), but not with `!=`/`!~` (the field is simply not extracted); with
 * `strict` (`-s`) any missing value drops the entry. Items without a filter never drop it otherwise.
 */
export function storeExtracted(e: Entry, items: ExtractItem[], get: (item: ExtractItem) => EVValue | undefined, strict = false): boolean {
  const values = items.map(get);
  for (let i = 0; i < items.length; i++) {
    const f = items[i].filter;
    const v = values[i];
    if (v === undefined) {
      if (strict || (f && !isNegativeOp(f.op))) return false;
    } else if (f && !testFilter(f, v)) {
      return false;
    }
  }
  for (let i = 0; i < items.length; i++) {
    const v = values[i];
    if (v !== undefined) e.evs.set(items[i].name, v);
  }
  return true;
}

export function requireItems(items: ExtractItem[], what: string): ExtractItem[] {
  if (items.length === 0) throw new ModuleArgError(`missing ${what} argument`);
  return items;
}

export function optionalString(v: string | true | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function consumedOf(ev: string | undefined): string[] {
  return ev === undefined ? [] : [ev];
}

/** A flag of the product's page that this service does not implement: how it is read, and what it does. */
export type Unsupported = Record<string, { kind: 'bool' | 'value'; what: string }>;

/**
 * Reads the leading flags. A flag the product documents but this service leaves out is an error
 * that names it (never silently ignored); any other unknown flag is `unknown flag -x`.
 */
export function readFlags(r: ArgReader, spec: FlagSpec, unsupported: Unsupported = {}): Flags {
  const all: FlagSpec = { ...spec };
  for (const [k, u] of Object.entries(unsupported)) all[k] = u.kind;
  const flags = r.flags(all);
  for (const k of Object.keys(flags)) {
    if (!(k in spec)) throw new ModuleArgError(`flag -${k} (${unsupported[k].what}) is not supported`);
  }
  return flags;
}

/** Refuses filter operators a module's page does not list for an item. */
export function checkOps(items: ExtractItem[], allowed: (item: ExtractItem) => readonly FilterOp[]): void {
  for (const it of items) {
    const ok = allowed(it);
    if (it.filter && !ok.includes(it.filter.op)) {
      throw new ModuleArgError(`operator ${it.filter.op} is not supported on ${it.source} (supported: ${ok.join(' ')})`);
    }
  }
}

export const EQUALITY_OPS: readonly FilterOp[] = ['==', '!=', '~', '!~'];

/**
 * A column index `[N]` in base 10, 8 (leading 0) or 16 (0x); the default EV name is the text
 * inside the brackets (`[0xA]` reads column 10 into "0xA").
 */
export function parseColumnIndex(src: string): { index: number; name: string } {
  const m = /^\[?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)\]?$/.exec(src);
  if (!m) throw new ModuleArgError(`invalid column index "${src}" (expected [N], [0xN] or [0N])`);
  const t = m[1];
  const index = /^0[xX]/.test(t) ? parseInt(t.slice(2), 16) : t.length > 1 && t[0] === '0' ? parseInt(t, 8) : parseInt(t, 10);
  if (!Number.isSafeInteger(index) || index > 1_000_000) throw new ModuleArgError(`column index "${src}" is too large`);
  return { index, name: t };
}
