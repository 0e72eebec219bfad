/**
 * `ax [name [op value] [as alias] ...]`: extraction through the autoextractor defined for each
 * entry's tag (configuration/autoextractors.md, search/ax/ax.md). A definition names an engine
 * (one of the extraction modules below), its Params and its Args; it compiles with the engine's
 * own code, as the query `engine Args Params` would, so `tag=app ax a b` answers what
 * `tag=app json a b` answers. Without names every field the definition extracts is extracted;
 * with names only those, each with its filter (`ax status==500`) pushed into the engine, which
 * refuses an operator it does not support in its own words.
 *
 * The engine names no feature: the definitions the caller may read reach the parser in its
 * context (`ParseContext.autoextractors`, provided through QUERY_AUTOEXTRACTORS), compiled once
 * per query for each defined tag the query's tag patterns match, and picked per entry by its tag.
 */
import { ArgReader, ExtractItem, readExtractItems } from '../args';
import { lex, Token } from '../lexer';
import { tagMatcher } from '../tags';
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { addWarning } from '../warnings';
import { cefModule } from './cef';
import { csvModule } from './csv';
import { isNegativeOp, readFlags } from './extract-common';
import { fieldsModule } from './fields';
import { jsonModule } from './json';
import { kvModule } from './kv';
import { ModuleDef, ModuleInstance, ParseContext } from './module';
import { regexModule } from './regex';
import { syslogModule } from './syslog';
import { xmlModule } from './xml';

/** One autoextractor as the query engine sees it (JSON-serialisable: it crosses to the workers). */
export interface AxDefinition {
  /** the tags it extracts (the product's Tag plus Tags) */
  tags: string[];
  name: string;
  /** the engine: one of AX_ENGINES */
  module: string;
  params: string;
  args: string;
}

/** The engines a definition may name, in the order GET /api/autoextractors/engines lists them. */
const ENGINES: ModuleDef[] = [csvModule, fieldsModule, regexModule, jsonModule, kvModule, syslogModule, cefModule, xmlModule];
export const AX_ENGINES: readonly string[] = ENGINES.map((m) => m.name);
const ENGINE_BY_NAME = new Map(ENGINES.map((m) => [m.name, m]));

/** Positional engines: Params is a CSV header (`ts, name,, id`), a blank name skips its column. */
const POSITIONAL = new Set(['csv', 'fields']);

/** The product's message for an engine it does not know ("asdf is not a supported engine"). */
export function unsupportedEngine(module: string): string {
  return `${module} is not a supported engine (engines: ${AX_ENGINES.join(', ')})`;
}

/** Tokens of a definition's Args or Params, as a query would read them after the module's name. */
function tokensOf(text: string, what: string): Token[] {
  if (text.trim() === '') return [];
  const { segments } = lex(text);
  if (segments.length !== 1) throw new ModuleArgError(`${what} may not contain "|"`);
  return segments[0];
}

const word = (value: string): Token => ({ kind: 'word', value, quoted: false, pos: 0 });
const str = (value: string): Token => ({ kind: 'string', value, quoted: true, pos: 0 });

/** The names of a CSV-header Params (quotes allowed, as the product's CSV example has them); '' skips a column. */
export function headerNames(params: string): string[] {
  const names: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < params.length; i++) {
    const c = params[i];
    if (quoted) {
      if (c === '"' && params[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      names.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  names.push(cur.trim());
  return names;
}

/** One extraction item of a definition: its tokens up to a filter or alias, and the name it writes. */
interface DefItem {
  source: Token;
  name: string;
}

/** A definition ready to compile: the engine, its flags, the items (or the regex) of its Params. */
interface Prepared {
  def: AxDefinition;
  engine: ModuleDef;
  flags: Token[];
  /** item engines: one per field; regex: none (its groups are its fields) */
  items: DefItem[];
  pattern?: string;
  /** every field the whole definition writes, in order */
  fields: string[];
}

function refuseFlagE(flags: Token[], engine: ModuleDef): void {
  // Read the flags as the engine reads them (its own error for an unknown one), then refuse -e.
  const r = new ArgReader(flags);
  const spec = FLAG_SPECS[engine.name] ?? {};
  const read = readFlags(r, spec);
  if ('e' in read) throw new ModuleArgError('the -e flag is not allowed: an autoextractor always reads the whole entry');
  r.end();
}

/** The flags each engine takes (the engine validates them again when it builds). */
const FLAG_SPECS: Record<string, Record<string, 'bool' | 'value'>> = {
  csv: { e: 'value', s: 'bool' },
  fields: { e: 'value', d: 'value', s: 'bool', q: 'bool', clean: 'bool' },
  regex: { e: 'value', p: 'bool', v: 'bool' },
  json: { e: 'value', s: 'bool' },
  kv: { e: 'value', sep: 'value', d: 'value', dall: 'value', s: 'bool', q: 'bool', noclean: 'bool' },
  syslog: { e: 'value' },
  cef: { e: 'value', s: 'bool' },
  xml: { e: 'value' },
};

function prepare(def: AxDefinition): Prepared {
  const engine = ENGINE_BY_NAME.get(def.module);
  if (!engine) throw new ModuleArgError(unsupportedEngine(def.module));
  if (def.params.trim() === '') throw new ModuleArgError('extraction parameters missing');
  const flags = tokensOf(def.args, 'Args');
  refuseFlagE(flags, engine);
  if (engine.name === 'regex') {
    if (flags.some((t) => t.value === '-v')) throw new ModuleArgError('the -v flag extracts nothing: it is not allowed in an autoextractor');
    const probe = engine.build([...flags, str(def.params)]);
    return { def, engine, flags, items: [], pattern: def.params, fields: probe.produced };
  }
  let items: DefItem[];
  if (POSITIONAL.has(engine.name)) {
    items = headerNames(def.params).flatMap((name, i) => (name === '' ? [] : [{ source: word(`[${i}]`), name }]));
    if (!items.length) throw new ModuleArgError('Params names no column');
  } else {
    const tokens = tokensOf(def.params, 'Params');
    const sources = itemSources(tokens);
    // The engine names each item (a JSON path's last part, a syslog field...): build it once to learn the names.
    const whole = engine.build([...flags, ...tokens]);
    if (whole.produced.length !== sources.length) throw new ModuleArgError('Params must list the fields to extract, each as `source [as name]`');
    items = sources.map((source, k) => ({ source, name: whole.produced[k] }));
  }
  const p: Prepared = { def, engine, flags, items, fields: items.map((it) => it.name) };
  build(p, undefined); // the whole definition, as `ax` alone runs it: the engine's errors now
  return p;
}

/** The source token of each `source [op value] [as name]` item of Params; a definition may not filter. */
function itemSources(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i++];
    if (t.kind !== 'word' && t.kind !== 'string') throw new ModuleArgError(`unexpected "${t.value}" in Params`);
    out.push(t);
    if (tokens[i]?.kind === 'op') throw new ModuleArgError('a definition cannot filter: filters belong in the query (ax name==value)');
    if (tokens[i]?.kind === 'word' && tokens[i].value === 'as' && !tokens[i].quoted) i += 2;
  }
  return out;
}

/** An ax argument: the field it reads, the name it writes and its filter. */
type Selection = ExtractItem;

/** Builds the engine over the definition: every field, or only `select` (with their filters and aliases). */
function build(p: Prepared, select: Selection[] | undefined): ModuleInstance {
  const args = [...p.flags];
  const itemTokens = (it: { source: Token; filter?: ExtractItem['filter']; name: string }): Token[] => [
    it.source,
    ...(it.filter ? [{ kind: 'op' as const, value: it.filter.op, quoted: false, pos: 0 }, str(it.filter.value)] : []),
    word('as'),
    str(it.name),
  ];
  if (p.pattern !== undefined) {
    args.push(str(p.pattern));
    for (const s of select ?? []) {
      if ((s.filter || s.name !== s.source) && p.fields.includes(s.source)) args.push(...itemTokens({ source: str(s.source), filter: s.filter, name: s.name }));
    }
  } else if (!select) {
    for (const it of p.items) args.push(...itemTokens(it));
  } else {
    for (const s of select) {
      const it = p.items.find((x) => x.name === s.source);
      if (it) args.push(...itemTokens({ source: it.source, filter: s.filter, name: s.name }));
    }
  }
  return p.engine.build(args);
}

function describeDef(def: AxDefinition): string {
  return `autoextractor ${JSON.stringify(def.name || def.tags.join(','))} (${def.module})`;
}

/**
 * Checks a definition as ax would compile it: the engine's own error (ModuleArgError) for Args
 * or Params it refuses, or an engine that does not exist. Answers the fields it extracts.
 */
export function checkAxDefinition(def: AxDefinition): string[] {
  return prepare(def).fields;
}

/** What the definition extracts from one sample line: its fields, or null when the engine drops the entry. */
export function runAxDefinition(def: AxDefinition, lines: string[], rt: RuntimeContext): Array<Record<string, EVValue> | null> {
  const inst = build(prepare(def), undefined);
  return lines.map((line) => {
    const e: Entry = { ts: 0, tag: 0, src: '', data: Buffer.from(line, 'utf8'), evs: new Map() };
    return inst.process!(e, rt) ? Object.fromEntries(e.evs) : null;
  });
}

/** One defined tag's compiled extraction, and what it must do besides. */
interface TagExtraction {
  instance: ModuleInstance;
  /** fields the engine writes that ax was not asked for (a regex's other groups): restored after it runs */
  extra: string[];
  /** a positive filter on a field this definition does not have: its entries never pass */
  neverPasses: boolean;
}

/** The ax module itself. `ctx.autoextractors` undefined: parsed only (describe), never run. */
export const axModule: ModuleDef = {
  name: 'ax',
  info: "Extract fields through the autoextractor defined for each entry's tag (all of its fields, or the named ones); inline filters as the underlying module allows",
  examples: ['ax', 'ax app src dst', 'ax status==500 url', 'ax email~"test.org" app path'],
  condensing: false,
  build(args: Token[], ctx?: ParseContext): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const select = readExtractItems(r, (s) => s);
    const defs = ctx?.autoextractors;
    if (!defs) {
      return {
        produced: select.map((s) => s.name),
        consumed: [],
        process() {
          throw new Error('ax: compiled without the autoextractors of the query');
        },
      };
    }
    const matches = tagMatcher(ctx?.tags ?? []);
    const byTag = new Map<string, TagExtraction>();
    const produced: string[] = [];
    const known = new Set<string>();
    for (const def of defs) {
      const tags = def.tags.filter((t) => matches(t) && !byTag.has(t));
      if (!tags.length) continue;
      let p: Prepared;
      try {
        p = prepare(def);
        const fields = p.fields;
        // Only filters (`ax status==404`): every field, the filtered ones filtered, as the product's
        // `ax email~"test.org" | table` shows all fields; a plain name (`ax status==404 user`) names the fields wanted.
        const restricts = select.some((s) => !s.filter);
        const chosen = select.length && !restricts ? fields.map((f) => select.find((s) => s.source === f) ?? { source: f, name: f }) : select;
        // A definition with none of the named fields extracts nothing (its entries miss them all).
        const none = restricts && !select.some((s) => fields.includes(s.source));
        const instance: ModuleInstance = none ? { produced: [], consumed: [], process: () => true } : build(p, chosen.length ? chosen : undefined);
        const wanted = new Set(restricts ? select.map((s) => s.name) : instance.produced);
        const extra = instance.produced.filter((f) => !wanted.has(f));
        const neverPasses = select.some((s) => !fields.includes(s.source) && s.filter !== undefined && !isNegativeOp(s.filter.op));
        for (const t of tags) byTag.set(t, { instance, extra, neverPasses });
        for (const f of instance.produced) if (wanted.has(f) && !produced.includes(f)) produced.push(f);
      } catch (err) {
        if (err instanceof ModuleArgError) throw new ModuleArgError(`${describeDef(def)} for tag ${tags[0]}: ${err.message}`);
        throw err;
      }
      for (const f of p.fields) known.add(f);
    }
    if (!byTag.size) {
      throw new ModuleArgError(`no autoextractor is defined for the tags of this query (${(ctx?.tags ?? []).join(',') || 'none'})`);
    }
    for (const s of select) {
      if (!known.has(s.source)) throw new ModuleArgError(`no autoextractor of this query's tags extracts "${s.source}" (${[...known].join(', ')})`);
    }
    // Entries of a tag without a definition: their fields are missing (a positive filter drops them).
    const undefinedPasses = !select.some((s) => s.filter && !isNegativeOp(s.filter.op));
    const seen = new Map<number, TagExtraction | null>();
    const extractionOf = (e: Entry, rt: RuntimeContext): TagExtraction | null => {
      let x = seen.get(e.tag);
      if (x === undefined) {
        x = byTag.get(rt.tagName(e.tag)) ?? null;
        seen.set(e.tag, x);
      }
      return x;
    };
    return {
      produced,
      consumed: [],
      process(e, rt) {
        const x = extractionOf(e, rt);
        if (!x) return undefinedPasses;
        if (x.neverPasses) return false;
        if (!x.extra.length) return x.instance.process!(e, rt);
        const before = x.extra.map((f) => e.evs.get(f));
        const ok = x.instance.process!(e, rt);
        x.extra.forEach((f, i) => {
          const v = before[i];
          if (v === undefined) e.evs.delete(f);
          else e.evs.set(f, v);
        });
        return ok;
      },
      collapseWarnings(rt, tagNames) {
        const bare = tagNames.filter((t) => matches(t) && !byTag.has(t)).sort();
        if (bare.length) {
          const shown = bare.slice(0, 5).join(', ') + (bare.length > 5 ? `, ... (${bare.length} tags)` : '');
          addWarning(
            rt,
            `ax: no autoextractor is defined for tag ${shown}: ${undefinedPasses ? 'its entries pass without extracted fields' : 'its entries do not pass the filters'}`,
          );
        }
      },
    };
  },
};

/**
 * Whether a query may call `ax` (so its autoextractors must be read): a segment starting with
 * it, or the first segment's first word after the constraints. Cheap (a lex, no parse); a query
 * it cannot lex, or a compound one, answers on the word alone.
 */
export function usesAx(query: string): boolean {
  if (!/\bax\b/.test(query)) return false;
  if (/@[A-Za-z0-9_]+\s*\{/.test(query)) return true;
  try {
    return lex(query).segments.some((seg, i) => {
      let k = 0;
      // constraints of the first segment: `word = value` (tag=a,b start=-1h ...)
      if (i === 0) while (seg[k]?.kind === 'word' && seg[k + 1]?.kind === 'op' && seg[k + 1].value === '=') k += 3;
      const t = seg[k];
      return t?.kind === 'word' && !t.quoted && t.value === 'ax';
    });
  } catch {
    return true;
  }
}
