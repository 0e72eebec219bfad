/**
 * XML extraction paths (`A.B.C`, `A.B.C[Attr]`, `A."My.Element"`) and one streaming pass over a
 * document with `saxes` that resolves several paths at once, stopping when all are resolved.
 */
import { SaxesParser, SaxesTagPlain } from 'saxes';
import { ArgReader } from '../args';
import { ModuleArgError } from '../types';

export interface XmlPath {
  elements: string[];
  attr?: string;
}

/** Splits `A."My.Element".B[Attr]` (quotes keep `.`, `[` and `]` inside a name). */
export function parseXmlPath(src: string): XmlPath {
  const elements: string[] = [];
  let attr: string | undefined;
  let i = 0;
  const bad = (why: string): never => {
    throw new ModuleArgError(`invalid path "${src}": ${why}`);
  };
  while (i < src.length) {
    if (attr !== undefined) bad('nothing may follow [attribute]');
    let name = '';
    if (src[i] === '"') {
      const end = src.indexOf('"', i + 1);
      if (end < 0) bad('unterminated quote');
      name = src.slice(i + 1, end);
      i = end + 1;
    } else {
      while (i < src.length && !'.[]"'.includes(src[i])) name += src[i++];
    }
    if (name === '') bad('empty element name');
    elements.push(name);
    if (src[i] === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) bad('unterminated [');
      attr = src.slice(i + 1, end).replace(/^"(.*)"$/, '$1');
      if (attr === '') bad('empty attribute name');
      i = end + 1;
    }
    if (i < src.length) {
      if (src[i] !== '.') bad(`unexpected "${src[i]}"`);
      i++;
      if (i === src.length) bad('ends with "."');
    }
  }
  if (elements.length === 0) bad('empty');
  return { elements, attr };
}

/**
 * Reads one path from the tokens. The lexer splits `A."My.Element".B` into `A.`, `My.Element`,
 * `.B`: the pieces are glued back (a path never ends in `.` nor starts with `.` or `[`), quoted
 * parts quoted again so that their dots stay in the name.
 */
export function readPathText(r: ArgReader): string {
  const first = r.next()!;
  let text = first.kind === 'string' ? `"${first.value}"` : first.value;
  for (let t = r.peek(); t && (t.kind === 'word' || t.kind === 'string'); t = r.peek()) {
    const continues = t.kind === 'word' && /^[.[]/.test(t.value);
    if (!continues && !text.endsWith('.')) break;
    r.next();
    text += t.kind === 'string' ? `"${t.value}"` : t.value;
  }
  return text;
}

/** What one path asks of a document. */
export interface XmlQuery {
  path: XmlPath;
  /** true: read the attribute itself; false: the element's value (an attribute only selects) */
  wantAttr: boolean;
  /** picks the first element whose tested value (the attribute if the path has one, else the value) passes */
  pick?: (v: string) => boolean;
}

/** `tested`: the attribute when the path names one, else the value; `value`: what is extracted. */
export interface XmlFound {
  tested: string;
  value: string;
}

class Stop extends Error {}
const STOP = new Stop();

interface Open {
  depth: number;
  start: number;
  text: string;
  hasChild: boolean;
  attr?: string;
}

/**
 * Values for each query: an element holding only text gives its text (entities decoded, CDATA
 * included), one holding elements gives its inner XML as written. Malformed XML ends the pass:
 * what was resolved before the error is kept.
 */
export function queryXml(doc: string, queries: XmlQuery[]): Array<XmlFound | undefined> {
  const found: Array<XmlFound | undefined> = queries.map(() => undefined);
  const done = queries.map(() => false);
  let remaining = queries.length;
  const prefix: boolean[][] = queries.map(() => [true]); // prefix[q][d]: stack[0..d) matches the path
  const open: Array<Open | undefined> = queries.map(() => undefined);
  let depth = 0;
  const resolve = (q: number, tested: string, value: string): void => {
    found[q] = { tested, value };
    done[q] = true;
    if (--remaining === 0) throw STOP;
  };
  const p = new SaxesParser();
  p.on('opentag', (tag: SaxesTagPlain) => {
    depth++;
    for (let q = 0; q < queries.length; q++) {
      const o = open[q];
      if (o && depth === o.depth + 1) o.hasChild = true;
      if (done[q]) continue;
      const els = queries[q].path.elements;
      const ok = depth <= els.length && prefix[q][depth - 1] === true && els[depth - 1] === tag.name;
      prefix[q][depth] = ok;
      if (!ok || depth !== els.length) continue;
      const { attr } = queries[q].path;
      const { wantAttr, pick } = queries[q];
      const a = attr === undefined ? undefined : tag.attributes[attr];
      if (attr !== undefined && (a === undefined || (pick && !pick(a)))) continue;
      if (wantAttr) resolve(q, a!, a!);
      else open[q] = { depth, start: p.position, text: '', hasChild: false, attr: a };
    }
  });
  const addText = (t: string): void => {
    for (const o of open) if (o && depth === o.depth) o.text += t;
  };
  p.on('text', addText);
  p.on('cdata', addText);
  p.on('closetag', (tag: SaxesTagPlain) => {
    for (let q = 0; q < queries.length; q++) {
      const o = open[q];
      if (!o || o.depth !== depth) continue;
      open[q] = undefined;
      const value = tag.isSelfClosing ? '' : o.hasChild ? doc.slice(o.start, doc.lastIndexOf('</', p.position - 1)) : o.text;
      const { pick } = queries[q];
      if (o.attr !== undefined) resolve(q, o.attr, value);
      else if (!pick || pick(value)) resolve(q, value, value);
    }
    depth--;
  });
  p.on('error', () => {
    throw STOP;
  });
  try {
    p.write(doc).close();
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return found;
}
