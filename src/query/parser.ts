/** Parser: query string -> constraints, module instances and a renderer, with precise errors. */
import { InnerQuery, parseCompound } from './compound';
import { ConstraintError, Constraints, parseConstraints } from './constraints';
import { lex, Token } from './lexer';
import { ModuleDef, ModuleInstance, ParseContext } from './modules/module';
import { findModule } from './modules/registry';
import { findRenderer } from './renderers/registry';
import { RendererDef, RendererInstance } from './renderers/renderer';
import { ModuleArgError, ParseError } from './types';

export interface ParsedModule {
  name: string;
  index: number;
  args: Token[];
  def: ModuleDef;
  instance: ModuleInstance;
}

export interface ParsedRenderer {
  name: string;
  index: number;
  args: Token[];
  def: RendererDef;
  instance: RendererInstance;
  /** true when no renderer was written and `text` was appended */
  implicit: boolean;
}

export interface ParsedQuery {
  rawQuery: string;
  /** the query without comments, trimmed */
  parsedQuery: string;
  /** parsedQuery plus the implicit renderer (` | text`) when none was given */
  effectiveQuery: string;
  constraints: Constraints;
  /** search modules, renderer excluded; `index` is the module's pipe-separated segment (`tag=x | a` puts a in segment 1) */
  modules: ParsedModule[];
  renderer: ParsedRenderer;
  /** index of the first condensing module (the renderer's index when there is none) */
  collapsingIndex: number;
  /** start= or end= given in the query */
  timeSpecified: boolean;
  /** compound queries: the `@name{...}` queries to run first (everything else describes the main query) */
  inner?: InnerQuery[];
}

function buildWith<T>(name: string, index: number, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof ModuleArgError) throw new ParseError(`ModuleError: ${name}: ${err.message}`, index);
    throw err;
  }
}

/** Splits the segments into [constraints, module token lists]. */
function splitConstraints(segments: Token[][]): { constraints: Constraints; modules: Token[][]; piped: boolean } {
  let parsed;
  try {
    parsed = parseConstraints(segments[0]);
  } catch (err) {
    if (err instanceof ConstraintError) throw new ParseError(`ConstraintError: ${err.message}`, 0);
    throw err;
  }
  const first = segments[0].slice(parsed.consumed);
  if (first.length === 0 && parsed.consumed > 0) {
    // `tag=x | count` reads as `tag=x count`: a pipe may follow the tag specification (as in the product)
    return { constraints: parsed.constraints, modules: segments.slice(1), piped: segments.length > 1 };
  }
  return { constraints: parsed.constraints, modules: [first, ...segments.slice(1)], piped: false };
}

/** What a query is parsed with besides its text: the autoextractors `ax` reads (undefined: describe only). */
export type QueryContext = Omit<ParseContext, 'tags'>;

/** Parses a query, compound or not; throws ParseError (with the offending module's index) when it is invalid. */
export function parseQuery(query: string, qctx: QueryContext = {}): ParsedQuery {
  const single = (q: string) => parseSingle(q, qctx);
  return parseCompound(query, single) ?? single(query);
}

function parseSingle(query: string, qctx: QueryContext): ParsedQuery {
  const { segments, stripped } = lex(query);
  if (stripped === '') throw new ParseError('SyntaxError: empty query', 0);
  const { constraints, modules: segs, piped } = splitConstraints(segments);
  const ctx: ParseContext = { ...qctx, tags: constraints.tags };
  const modules: ParsedModule[] = [];
  let renderer: ParsedRenderer | undefined;
  // errors and module indexes count the query's pipe-separated segments (the console marks segment i)
  const shift = piped ? 1 : 0;
  segs.forEach((tokens, i) => {
    const index = i + shift;
    // a bare `( expr )` module (lexed as one fragment token) is an eval program
    const bare = tokens[0]?.kind === 'fragment';
    const head: Token | undefined = bare ? { kind: 'word', value: 'eval', quoted: false, pos: tokens[0].pos } : tokens[0];
    if (!head) throw new ParseError(`ModuleError: missing module ${index === 0 ? 'before' : 'after'} "|"`, index);
    if (head.kind !== 'word') throw new ParseError(`ModuleError: ${head.value} is not a valid module`, index);
    const args = bare ? tokens : tokens.slice(1);
    const rdef = findRenderer(head.value);
    if (rdef) {
      if (i !== segs.length - 1) throw new ParseError(`ModuleError: renderer ${head.value} must be the last module`, index);
      const instance = buildWith(head.value, index, () => rdef.build(args));
      renderer = { name: head.value, index, args, def: rdef, instance, implicit: false };
      return;
    }
    const def = findModule(head.value);
    if (!def) throw new ParseError(`ModuleError: ${head.value} is not a valid module`, index);
    const instance = buildWith(head.value, index, () => def.build(args, ctx));
    modules.push({ name: head.value, index, args, def, instance });
  });
  let effectiveQuery = stripped;
  if (!renderer) {
    const text = findRenderer('text')!;
    renderer = { name: 'text', index: modules.length + shift, args: [], def: text, instance: text.build([]), implicit: true };
    effectiveQuery = modules.length ? `${stripped} | text` : `${stripped} text`;
  }
  const firstCondensing = modules.findIndex((m) => m.def.condensing);
  return {
    rawQuery: query,
    parsedQuery: stripped,
    effectiveQuery,
    constraints,
    modules,
    renderer,
    collapsingIndex: firstCondensing >= 0 ? firstCondensing : modules.length,
    timeSpecified: constraints.start !== undefined || constraints.end !== undefined,
  };
}
