/**
 * Macro expansion: `$NAME` and `$NAME(arg, ...)` in a query are replaced by the macro's text
 * before the query is parsed (the product's search macros). Pure text: a macro reads nothing, the
 * expanded query is checked and run with the rights of whoever runs it.
 *
 * - A name is `$` then an upper-case letter or digit, then upper-case letters, digits, `_` or `-`
 *   (the product's AllowedMacroChars). `$lower` is no macro and is left as written.
 * - Text inside double-quoted or backquoted strings and comments is left as written (a regex
 *   `"(\d+)$"` or a `$1` in a string is no macro call).
 * - Arguments: `(` right after the name opens a list split at commas outside quotes and nested
 *   parentheses; each is trimmed, and a whole double-quoted argument loses its quotes (so
 *   `$HTTPUSER("a, b")` into `ax user_agent~"%%1%%"` gives `ax user_agent~"a, b"`). `%%N%%` in
 *   the macro is replaced by argument N; a macro takes as many arguments as its highest `%%N%%`.
 * - The expansion is expanded again (nesting); a loop, an unknown macro, a wrong argument count, a
 *   nesting deeper than MACRO_MAX_DEPTH, more than MACRO_MAX_CALLS calls or a result longer than
 *   MACRO_MAX_EXPANDED_CHARS is a 400 that names the macro.
 */
import { AppError, refusal } from '../common/errors/app-error';

export const MACRO_MAX_DEPTH = 16;
export const MACRO_MAX_CALLS = 1000;
export const MACRO_MAX_ARGUMENTS = 32;
/** As long as a query typed by hand may be (SearchString): macros give the engine no more work than typing. */
export const MACRO_MAX_EXPANDED_CHARS = 65536;

/** The name rule of a stored macro (without the `$`). */
export const MACRO_NAME = /^[A-Z0-9][A-Z0-9_-]*$/;
const NAME_CHAR = /[A-Z0-9_-]/;
const NAME_START = /[A-Z0-9]/;
const PLACEHOLDER = /%%([1-9][0-9]?)%%/g;

/** One expanded call, in the coordinates of the text it was expanded into. */
export interface MacroSpan {
  start: number;
  end: number;
  name: string;
  /** 0: written in the user's query; else nested in another macro's text */
  depth: number;
  /** the call as the user wrote it (top-level calls only): offsets into the user's query */
  userStart: number;
  userEnd: number;
}

export interface MacroExpansion {
  /** the user's query */
  raw: string;
  /** the query with every macro expanded */
  query: string;
  /** every call, outermost first within a region */
  spans: MacroSpan[];
}

/** The macros a name resolves to for the caller: name -> text (the caller's own first, then a group's, then a global one). */
export type MacroResolver = (names: string[]) => Promise<ReadonlyMap<string, string>>;

/** True when `text` has something that looks like a macro call (outside strings and comments). */
export function hasMacroCall(text: string): boolean {
  let found = false;
  scan(text, (i) => {
    if (NAME_START.test(text[i + 1] ?? '')) found = true;
    return found;
  });
  return found;
}

/**
 * Calls `at(i)` for every `$` of `text` outside strings and comments; stops when it answers true.
 * The skipped regions follow the lexer (lexer.ts): "..." with backslash escapes, `...`, /* *\/ and //.
 */
function scan(text: string, at: (i: number) => boolean | void): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else {
      if (c === '$' && at(i)) return;
      i++;
    }
  }
}

/** The names called in `text` (outside strings and comments). */
function callsIn(text: string): string[] {
  const names = new Set<string>();
  scan(text, (i) => {
    const name = nameAt(text, i + 1);
    if (name) names.add(name);
  });
  return [...names];
}

function nameAt(text: string, i: number): string {
  if (!NAME_START.test(text[i] ?? '')) return '';
  let j = i + 1;
  while (j < text.length && NAME_CHAR.test(text[j])) j++;
  return text.slice(i, j);
}

/** The number of arguments a macro takes: its highest `%%N%%`. */
export function macroArity(text: string): number {
  let max = 0;
  for (const m of text.matchAll(PLACEHOLDER)) max = Math.max(max, Number(m[1]));
  return max;
}

/** The argument list starting at `open` (a `(`): the arguments and the offset after `)`. */
function argumentsAt(text: string, open: number, name: string, where: string): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  let i = open + 1;
  const push = (to: number) => {
    if (args.length >= MACRO_MAX_ARGUMENTS) throw refusal('MACRO_TOO_MANY_ARGUMENTS', name, MACRO_MAX_ARGUMENTS, where);
    args.push(unquote(text.slice(start, to).trim()));
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) {
        // `$NAME()` is a call with no arguments
        if (args.length > 0 || text.slice(start, i).trim() !== '') push(i);
        return { args, end: i + 1 };
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      push(i);
      start = i + 1;
    }
    i++;
  }
  throw refusal('MACRO_CALL_UNTERMINATED', name, where);
}

function unquote(arg: string): string {
  if (arg.length < 2 || arg[0] !== '"' || arg[arg.length - 1] !== '"') return arg;
  // one string only: the closing quote is not escaped and no other quote closes earlier
  let i = 1;
  while (i < arg.length - 1 && arg[i] !== '"') i += arg[i] === '\\' ? 2 : 1;
  return i === arg.length - 1 ? arg.slice(1, -1) : arg;
}

const chainText = (chain: string[]): string => chain.map((n) => `$${n}`).join(' -> ');
const inText = (chain: string[]): string => (chain.length ? ` (in ${chainText(chain)})` : '');

interface Expander {
  defs: Map<string, string>;
  resolve: MacroResolver;
  calls: number;
}

/** Resolves the names `text` calls that are not known yet (one look-up per nesting level). */
async function learn(x: Expander, text: string): Promise<void> {
  const wanted = callsIn(text).filter((n) => !x.defs.has(n));
  if (!wanted.length) return;
  const found = await x.resolve(wanted);
  for (const n of wanted) {
    const t = found.get(n);
    if (t !== undefined) x.defs.set(n, t);
  }
}

async function expandText(x: Expander, text: string, chain: string[], top: boolean): Promise<{ text: string; spans: MacroSpan[] }> {
  await learn(x, text);
  const calls: Array<{ start: number; end: number; name: string; args: string[] }> = [];
  scan(text, (i) => {
    const name = nameAt(text, i + 1);
    if (!name) return;
    if (!x.defs.has(name)) throw refusal('MACRO_UNKNOWN', name, inText(chain));
    let end = i + 1 + name.length;
    let args: string[] = [];
    if (text[end] === '(') ({ args, end } = argumentsAt(text, end, name, inText(chain)));
    calls.push({ start: i, end, name, args });
  });
  let out = '';
  let from = 0;
  const spans: MacroSpan[] = [];
  for (const call of calls) {
    if (++x.calls > MACRO_MAX_CALLS) throw refusal('MACRO_TOO_MANY_CALLS', MACRO_MAX_CALLS);
    const body = x.defs.get(call.name)!;
    const path = [...chain, call.name];
    if (chain.includes(call.name)) throw refusal('MACRO_LOOP', chainText(path));
    if (path.length > MACRO_MAX_DEPTH) throw refusal('MACRO_TOO_DEEP', MACRO_MAX_DEPTH, chainText(path));
    const wanted = macroArity(body);
    if (call.args.length !== wanted) throw refusal('MACRO_ARGUMENT_COUNT', call.name, wanted, call.args.length, inText(chain));
    const filled = wanted ? body.replace(PLACEHOLDER, (_, n: string) => call.args[Number(n) - 1]) : body;
    const inner = await expandText(x, filled, path, false);
    out += text.slice(from, call.start);
    const start = out.length;
    out += inner.text;
    if (out.length > MACRO_MAX_EXPANDED_CHARS) throw refusal('MACRO_EXPANSION_TOO_LARGE', MACRO_MAX_EXPANDED_CHARS);
    spans.push({ start, end: out.length, name: call.name, depth: chain.length, userStart: top ? call.start : -1, userEnd: top ? call.end : -1 });
    for (const s of inner.spans) spans.push({ ...s, start: s.start + start, end: s.end + start });
    from = call.end;
  }
  out += text.slice(from);
  if (out.length > MACRO_MAX_EXPANDED_CHARS) throw refusal('MACRO_EXPANSION_TOO_LARGE', MACRO_MAX_EXPANDED_CHARS);
  return { text: out, spans };
}

/**
 * Expands every macro of `query`. A query without a call comes back as is, without a look-up.
 * Throws a 400 AppError (MACRO_*) for a call that cannot be expanded.
 */
export async function expandMacros(query: string, resolve: MacroResolver): Promise<MacroExpansion> {
  if (!hasMacroCall(query)) return { raw: query, query, spans: [] };
  const { text, spans } = await expandText({ defs: new Map(), resolve, calls: 0 }, query, [], true);
  return { raw: query, query: text, spans };
}

/** The pipe-separated segments of a query (module i is segment i), as [start, end) offsets. */
export function segmentsOf(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && (text[i + 1] === '*' || text[i + 1] === '/')) {
      const end = text[i + 1] === '*' ? text.indexOf('*/', i + 2) + 1 : text.indexOf('\n', i);
      i = end <= 0 ? text.length : end;
    } else if (c === '(' || c === '{') depth++;
    else if ((c === ')' || c === '}') && depth > 0) depth--;
    else if (c === '|' && depth === 0) {
      out.push([start, i]);
      start = i + 1;
    }
    i++;
  }
  out.push([start, text.length]);
  return out;
}

/**
 * A parse error of an expanded query, told in the user's terms: when the failing module (segment
 * `moduleIndex` of the expanded text) came from a macro, the message names the macro (and the one
 * nested in it that produced the text) and where the call is in the user's query, and the module
 * index is that of the call in the user's query.
 */
export function attributeParseError(x: MacroExpansion, message: string, moduleIndex: number): { message: string; moduleIndex: number } {
  if (!x.spans.length) return { message, moduleIndex };
  const [s, e] = segmentsOf(x.query)[moduleIndex] ?? [0, x.query.length];
  const hits = x.spans.filter((sp) => sp.start < Math.max(e, s + 1) && sp.end > s);
  const top = hits.find((sp) => sp.depth === 0);
  if (!top) return { message, moduleIndex };
  const inner = hits.filter((sp) => sp.start >= top.start && sp.end <= top.end).sort((a, b) => b.depth - a.depth)[0];
  const via = inner && inner !== top ? `, from $${inner.name}` : '';
  const userIndex = segmentsOf(x.raw).findIndex(([a, b]) => top.userStart >= a && top.userStart <= b);
  return {
    message: `${message} (in the expansion of $${top.name}${via}, at offset ${top.userStart} of the query: ${x.raw.slice(top.userStart, Math.min(top.userEnd, top.userStart + 80))})`,
    moduleIndex: userIndex < 0 ? moduleIndex : userIndex,
  };
}

export const isMacroError = (err: unknown): err is AppError => err instanceof AppError && err.code.startsWith('MACRO_');
