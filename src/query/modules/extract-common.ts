/** Shared pieces of the extraction modules (json, kv, regex, fields). */
import { ExtractItem } from '../args';
import { testFilter } from '../filter';
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';

/** Text the module reads: DATA, or the EV named by `-e`. Undefined when the EV is missing. */
export function sourceText(e: Entry, ev: string | undefined, rt: RuntimeContext): string | undefined {
  if (ev === undefined) return e.data.toString('utf8');
  const v = getEV(e, ev, rt);
  return v === undefined ? undefined : evToString(v);
}

/**
 * Stores the extracted values. An entry is dropped (false) when an item with a filter is
 * missing or fails its filter; items without a filter never drop the entry.
 */
export function storeExtracted(e: Entry, items: ExtractItem[], get: (item: ExtractItem) => EVValue | undefined): boolean {
  const values = items.map(get);
  for (let i = 0; i < items.length; i++) {
    const f = items[i].filter;
    if (f && !testFilter(f, values[i])) return false;
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
