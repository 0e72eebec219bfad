/** `xml [-e EV] A.B.C[Attr] [op value] [as name] ...`: values of XML elements and attributes. */
import { ArgReader, ExtractItem } from '../args';
import { isFilterOp, testFilter } from '../filter';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { checkOps, consumedOf, EQUALITY_OPS, isNegativeOp, optionalString, readFlags, requireItems, sourceText } from './extract-common';
import { parseXmlPath, queryXml, readPathText, XmlQuery } from './xml-path';

/** Items `path [op value] [as name]` (filter and alias in either order). */
function readItems(r: ArgReader): ExtractItem[] {
  const items: ExtractItem[] = [];
  while (!r.done) {
    const t = r.peek()!;
    if (t.kind !== 'word' && t.kind !== 'string') throw new ModuleArgError(`unexpected "${t.value}"`);
    const source = readPathText(r);
    const path = parseXmlPath(source);
    const item: ExtractItem = { source, name: '' };
    for (let more = true; more;) {
      more = false;
      const p = r.peek();
      if (p && p.kind === 'op' && !item.filter) {
        if (!isFilterOp(p.value)) throw new ModuleArgError(`invalid filter operator "${p.value}"`);
        r.next();
        item.filter = { op: p.value, value: r.value(`value after ${source}${p.value}`) };
        more = true;
      } else if (p && p.kind === 'word' && p.value === 'as') {
        r.next();
        item.name = r.value('name after "as"');
        more = true;
      }
    }
    // `A.B[Attr]` reads the attribute; with a filter the attribute only selects the element
    if (item.name === '') item.name = path.attr !== undefined && !item.filter ? path.attr : path.elements[path.elements.length - 1];
    items.push(item);
  }
  return items;
}

export const xmlModule: ModuleDef = {
  name: 'xml',
  info: 'Extract XML element values (A.B.C; inner XML when the element holds elements) and attributes (A.B.C[Attr]); a filter on an attribute selects which element to extract; filters == != ~ !~',
  examples: ['xml A.B.C', 'xml A.B.C[MyAttr]', 'xml System.Data[Name]=="Username"', 'xml -e payload A."My.Element" as MyElement'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value' });
    const ev = optionalString(flags.e);
    const items = requireItems(readItems(r), 'path');
    checkOps(items, () => EQUALITY_OPS);
    const queries: XmlQuery[] = items.map((it) => {
      const path = parseXmlPath(it.source);
      const f = it.filter;
      // a positive filter picks the first element that passes; a negative one judges the first element
      const pick = f && !isNegativeOp(f.op) ? (v: string) => testFilter(f, v) : undefined;
      return { path, wantAttr: path.attr !== undefined && !f, pick };
    });
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const found = text === undefined ? [] : queryXml(text, queries);
        for (let i = 0; i < items.length; i++) {
          const f = items[i].filter;
          const got = found[i];
          if (got === undefined ? f && !isNegativeOp(f.op) : f && !testFilter(f, got.tested)) return false;
        }
        for (let i = 0; i < items.length; i++) {
          const got = found[i];
          if (got !== undefined) e.evs.set(items[i].name, got.value);
        }
        return true;
      },
    };
  },
};
