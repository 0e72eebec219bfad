/** `fields [-d delim] [-e EV] [N] [op value] [as name] ...` (default delimiter ","; indexes 0-based) */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, requireItems, sourceText, storeExtracted } from './extract-common';

function parseIndex(src: string): number {
  const m = /^\[?(\d+)\]?$/.exec(src);
  if (!m) throw new ModuleArgError(`invalid field index "${src}"`);
  return Number(m[1]);
}

export const fieldsModule: ModuleDef = {
  name: 'fields',
  info: 'Split the data on a delimiter (default ",") and extract fields by 0-based index',
  examples: ['fields -d "\\t" [9] as url [2]', 'fields [0] as user [3]=="GET" as method'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ e: 'value', d: 'value' });
    const ev = optionalString(flags.e);
    const delim = optionalString(flags.d) ?? ',';
    if (delim === '') throw new ModuleArgError('delimiter must not be empty');
    const items = requireItems(readExtractItems(r, (s) => String(parseIndex(s))), 'field index');
    const index = new Map(items.map((it) => [it, parseIndex(it.source)]));
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const parts = text === undefined ? [] : text.split(delim);
        return storeExtracted(e, items, (it) => parts[index.get(it)!]);
      },
    };
  },
};
