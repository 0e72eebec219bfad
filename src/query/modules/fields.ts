/** `fields [-e EV] [-d delim] [-s] [-q] [-clean] [N] [op value] [as name] ...` (default delimiter ","; indexes 0-based) */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, parseColumnIndex, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';
import { splitColumns } from './split-fields';

export const fieldsModule: ModuleDef = {
  name: 'fields',
  info: 'Split the data on a delimiter (default ",") and extract fields by 0-based index; -s strict, -q quoted fields, -clean trims whitespace (and quotes with -q)',
  examples: ['fields -d "\\t" [9] as url [2]', 'fields [0] as user [3]=="GET" as method', 'fields -d " " -q -clean [1] as msg'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', d: 'value', s: 'bool', q: 'bool', clean: 'bool' });
    const ev = optionalString(flags.e);
    const delim = optionalString(flags.d) ?? ',';
    if (delim === '') throw new ModuleArgError('delimiter must not be empty');
    const quoted = flags.q === true;
    if (quoted && delim.includes('"')) throw new ModuleArgError('with -q the delimiter cannot contain a double quote');
    const opts = { quoted, clean: flags.clean === true };
    const items = requireItems(
      readExtractItems(r, (s) => parseColumnIndex(s).name),
      'field index',
    );
    const index = new Map(items.map((it) => [it, parseColumnIndex(it.source).index]));
    const maxIndex = Math.max(...index.values());
    const strict = flags.s === true;
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const parts = text === undefined ? [] : splitColumns(text, delim, maxIndex, opts);
        return storeExtracted(e, items, (it) => parts[index.get(it)!], strict);
      },
    };
  },
};
