/** Shared pieces of the data-transform modules (base64, hexlify, trim, truncate, unescape, strings...). */
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';

/** The largest value printf and concat build for one entry (a 64 KiB query naming one huge EV thousands of times must not build gigabytes). */
export const MAX_BUILT_VALUE = 16 * 1024 * 1024;

/** The bytes of a value: a byte value as it is, anything else as its UTF-8 text. */
export function valueBytes(v: EVValue): Buffer {
  return Buffer.isBuffer(v) ? v : Buffer.from(evToString(v), 'utf8');
}

/** Reads DATA or an enumerated value (undefined when the entry lacks it). */
export function readValue(e: Entry, name: string, rt: RuntimeContext): EVValue | undefined {
  return name === 'DATA' ? e.data : getEV(e, name, rt);
}

/** Writes DATA (as bytes) or an enumerated value. */
export function writeValue(e: Entry, name: string, v: EVValue): void {
  if (name === 'DATA') e.data = valueBytes(v);
  else e.evs.set(name, v);
}

/** An enumerated value name read from the arguments, refused when empty. */
export function checkName(name: string, what: string): string {
  if (name === '') throw new ModuleArgError(`${what} must not be empty`);
  return name;
}

/** Parses a whole-number argument in [min, max], naming it in the refusal. */
export function intArg(text: string, what: string, min: number, max: number): number {
  if (!/^[-+]?\d+$/.test(text)) throw new ModuleArgError(`${what} must be a whole number, not "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new ModuleArgError(`${what} must be between ${min} and ${max}, not ${text}`);
  return n;
}

/** `EV [as name] EV [as name] ...`: the values a module rewrites, in place or under a new name. */
export function readRenames(r: { done: boolean; value(what: string): string; accept(w: string): boolean }): Array<{ source: string; target: string }> {
  const items: Array<{ source: string; target: string }> = [];
  while (!r.done) {
    const source = checkName(r.value('enumerated value name'), 'enumerated value name');
    const target = r.accept('as') ? checkName(r.value('name after "as"'), 'name after "as"') : source;
    items.push({ source, target });
  }
  if (new Set(items.map((i) => i.target)).size !== items.length) throw new ModuleArgError('the same output name is given twice, use "as" to rename');
  return items;
}
