/**
 * Compound queries: `@name{ inner query ending in table }; ... main query` where the main query
 * (and later inner queries) read an inner query's table with `lookup -r @name`. The inner queries
 * run first, in order, over the same range; their tables become lookup tables. Also the resources
 * a parsed query needs, and the check that the loaded tables have the columns it uses.
 */
import type { ParsedQuery } from './parser';
import { LookupTable, LookupTableError, tableFromRows } from './lookup-table';
import type { RenderResult } from './renderers/renderer';
import { ParseError, ResourceNeed } from './types';

export interface InnerQuery {
  name: string;
  /** the inner query's text, as written between the braces */
  query: string;
  parsed: ParsedQuery;
}

/** A resource need with where it comes from (for errors). */
export interface LocatedNeed extends ResourceNeed {
  moduleIndex: number;
  /** the inner query it appears in; undefined for the main query */
  inner?: string;
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*/;
const syntax = (msg: string) => new ParseError(`SyntaxError: ${msg}`, 0);

/** Index just past a comment starting at `i`, or `i` when none starts there. */
function skipComment(q: string, i: number): number {
  if (q.startsWith('//', i)) {
    const end = q.indexOf('\n', i);
    return end < 0 ? q.length : end;
  }
  if (q.startsWith('/*', i)) {
    const end = q.indexOf('*/', i + 2);
    if (end < 0) throw syntax(`unterminated comment starting at offset ${i}`);
    return end + 2;
  }
  return i;
}

function skipSpace(q: string, i: number): number {
  for (;;) {
    while (i < q.length && /\s/.test(q[i])) i++;
    const j = skipComment(q, i);
    if (j === i) return i;
    i = j;
  }
}

/** Index of the `}` closing the brace opened just before `i` (quotes, backticks and comments skipped). */
function closingBrace(q: string, i: number, name: string): number {
  let depth = 1;
  while (i < q.length) {
    const c = q[i];
    const j = skipComment(q, i);
    if (j !== i) {
      i = j;
    } else if (c === '"') {
      i++;
      while (i < q.length && q[i] !== '"') i += q[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '`') {
      const end = q.indexOf('`', i + 1);
      i = end < 0 ? q.length : end + 1;
    } else {
      if (c === '{') depth++;
      if (c === '}' && --depth === 0) return i;
      i++;
    }
  }
  throw syntax(`inner query @${name} has no closing "}"`);
}

/** Splits `@a{...}; @b{...}; main`; null when the query does not start with `@`. */
export function splitCompound(query: string): { inner: Array<{ name: string; query: string }>; main: string } | null {
  let i = skipSpace(query, 0);
  if (query[i] !== '@') return null;
  const inner: Array<{ name: string; query: string }> = [];
  while (query[i] === '@') {
    const name = NAME.exec(query.slice(i + 1))?.[0];
    if (!name) throw syntax(`"@" must be followed by the inner query's name (letters, digits, _ . -)`);
    i = skipSpace(query, i + 1 + name.length);
    if (query[i] !== '{') throw syntax(`expected "{" after @${name}`);
    const close = closingBrace(query, i + 1, name);
    if (inner.some((x) => x.name === name)) throw syntax(`inner query @${name} is defined twice`);
    inner.push({ name, query: query.slice(i + 1, close) });
    i = skipSpace(query, close + 1);
    if (query[i] !== ';') throw syntax(`expected ";" after inner query @${name}`);
    i = skipSpace(query, i + 1);
  }
  const main = query.slice(i);
  if (!main.trim()) throw syntax('a compound query needs a main query after the inner queries');
  return { inner, main };
}

/** Resource needs of one parsed query (not its inner queries). */
function needsOf(p: ParsedQuery, inner?: string): LocatedNeed[] {
  return p.modules.flatMap((m) => (m.instance.resources ?? []).map((n) => ({ ...n, moduleIndex: m.index, inner })));
}

/** Every resource the query reads, inner queries first; `@name` references included. */
export function resourcesNeeded(p: ParsedQuery): LocatedNeed[] {
  return [...(p.inner ?? []).flatMap((q) => needsOf(q.parsed, q.name)), ...needsOf(p)];
}

const located = (msg: string, n: LocatedNeed) => new ParseError(n.inner ? `${msg} (in inner query @${n.inner})` : msg, n.moduleIndex);

const notDefined = (n: LocatedNeed) => located(`ModuleError: lookup: ${n.ref} is not an inner query defined before this query`, n);

/** `@name` references of `p` must name one of `before`. */
function checkRefs(p: ParsedQuery, before: InnerQuery[], inner?: string): void {
  const n = needsOf(p, inner).find((x) => x.ref.startsWith('@') && !before.some((q) => `@${q.name}` === x.ref));
  if (n) throw notDefined(n);
}

/**
 * Parses a compound query with `parseSingle` for each part. The result is the main query's, with
 * the whole text as raw/parsed/effective query and the inner queries in `inner`. Null when the
 * query is not compound.
 */
export function parseCompound(query: string, parseSingle: (q: string) => ParsedQuery): ParsedQuery | null {
  const split = splitCompound(query);
  if (!split) return null;
  const inner: InnerQuery[] = [];
  for (const { name, query: text } of split.inner) {
    let parsed: ParsedQuery;
    try {
      parsed = parseSingle(text);
    } catch (err) {
      if (err instanceof ParseError) throw new ParseError(`${err.message} (in inner query @${name})`, err.moduleIndex);
      throw err;
    }
    const r = parsed.renderer;
    if (r.implicit || r.name !== 'table') throw new ParseError(`ModuleError: inner query @${name} must end with table`, r.index);
    if (r.instance.save !== undefined) throw new ParseError(`ModuleError: table -save is not supported in inner query @${name}`, r.index);
    checkRefs(parsed, inner, name);
    inner.push({ name, query: text, parsed });
  }
  const main = parseSingle(split.main);
  checkRefs(main, inner);
  const prefix = inner.map((q) => `@${q.name}{${q.parsed.parsedQuery}}; `).join('');
  return { ...main, rawQuery: query, parsedQuery: prefix + main.parsedQuery, effectiveQuery: prefix + main.effectiveQuery, inner };
}

/** Columns of an inner query's table when the query names them (`table a b`), else undefined. */
function innerColumns(p: ParsedQuery, ref: string): string[] | undefined {
  const q = p.inner?.find((x) => `@${x.name}` === ref);
  const cols = q?.parsed.renderer.instance.consumed;
  return cols?.length ? cols : undefined;
}

/**
 * Checks that every needed table is loaded and has the columns used. `partial`: at launch, before
 * the inner queries ran — `@name` tables are checked only when their columns are written out.
 */
export function checkLookups(p: ParsedQuery, tables: ReadonlyMap<string, LookupTable>, opts: { partial?: boolean } = {}): void {
  for (const n of resourcesNeeded(p)) {
    const t = tables.get(n.ref);
    const deferred = !t && opts.partial && n.ref.startsWith('@');
    // A plain query run on its own (an inner query when it runs) may read @name; at launch it must be defined.
    if (deferred && !p.inner?.some((q) => `@${q.name}` === n.ref)) throw notDefined(n);
    const columns = t?.columns ?? (deferred ? innerColumns(p, n.ref) : undefined);
    if (!columns) {
      if (deferred) continue;
      throw located(`ModuleError: lookup: resource "${n.ref}" was not loaded`, n);
    }
    const missing = n.columns.find((c) => !columns.includes(c));
    if (missing !== undefined) throw located(`ModuleError: lookup: ${n.ref.startsWith('@') ? 'inner query' : 'resource'} "${n.ref}" has no column "${missing}"`, n);
  }
}

/**
 * Runs the inner queries in order through `run` (each sees the tables before it) and returns
 * `tables` plus one table per inner query, under `@name`. A table over `maxBytes` ends it with a
 * LookupTableError naming the inner query.
 */
export async function runInnerQueries(
  p: ParsedQuery,
  tables: ReadonlyMap<string, LookupTable>,
  run: (query: string, tables: ReadonlyMap<string, LookupTable>, name: string) => Promise<RenderResult>,
  maxBytes: number,
): Promise<Map<string, LookupTable>> {
  const out = new Map(tables);
  for (const q of p.inner ?? []) {
    const r = await run(q.query, out, q.name);
    if (r.kind !== 'table') throw new LookupTableError(`inner query @${q.name} did not produce a table`);
    try {
      out.set(
        `@${q.name}`,
        tableFromRows(
          r.Entries.Columns,
          r.Entries.Rows.map((x) => x.Row),
          { maxBytes },
        ),
      );
    } catch (err) {
      if (err instanceof LookupTableError) throw new LookupTableError(`inner query @${q.name}: ${err.message}`);
      throw err;
    }
  }
  return out;
}
