/** `csv [-e EV] [-s] [N] [op value] [as name] ...`: comma separated columns, quoted columns may hold commas, quotes ("") and newlines. */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleDef, ModuleInstance } from './module';
import { checkOps, consumedOf, EQUALITY_OPS, optionalString, parseColumnIndex, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';

const QUOTE = 0x22;
const COMMA = 0x2c;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/**
 * The columns 0..maxIndex of one CSV record (one pass, stops after `maxIndex`). Surrounding
 * whitespace is dropped; a column whose first non-blank character is `"` is quoted: it runs to
 * the next lone `"` (`""` is one quote) and may hold commas and newlines; text after the closing
 * quote up to the comma is kept (the quoted text keeps its own blanks). A `"` inside an unquoted column is an ordinary character.
 */
export function csvColumns(text: string, maxIndex: number): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    let col = '';
    if (i < n && text.charCodeAt(i) === QUOTE) {
      let from = ++i;
      for (; i < n; i++) {
        if (text.charCodeAt(i) !== QUOTE) continue;
        col += text.slice(from, i);
        if (text.charCodeAt(i + 1) === QUOTE) {
          col += '"';
          from = ++i + 1;
        } else {
          from = -1;
          i++;
          break;
        }
      }
      if (from >= 0) col += text.slice(from, i); // unterminated: the rest of the record
    }
    const rest = i;
    while (i < n && text.charCodeAt(i) !== COMMA) i++;
    out.push(col + text.slice(rest, i).trimEnd());
    if (i >= n || out.length > maxIndex) return out;
    i++; // the comma
  }
}

export const csvModule: ModuleDef = {
  name: 'csv',
  info: 'Extract comma separated columns by 0-based index [N] (quoted columns may contain commas, "" and newlines; whitespace and quotes are trimmed); filters == != ~ !~; -s drops entries missing a column',
  examples: ['csv [9] as url', 'csv [0]=="foo" [2]!="bar" [3]~baz as ID', 'csv -e params [0] [1] [2] | table 0 1 2'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', s: 'bool' });
    const ev = optionalString(flags.e);
    const items = requireItems(
      readExtractItems(r, (s) => parseColumnIndex(s).name),
      'column index',
    );
    checkOps(items, () => EQUALITY_OPS);
    const index = new Map(items.map((it) => [it, parseColumnIndex(it.source).index]));
    const maxIndex = Math.max(...index.values());
    const strict = flags.s === true;
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const cols = text === undefined ? [] : csvColumns(text, maxIndex);
        return storeExtracted(e, items, (it) => cols[index.get(it)!], strict);
      },
    };
  },
};
