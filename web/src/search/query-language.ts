/**
 * What the console knows of the query language, in one place: tokens (as the service's lexer in
 * src/query/lexer.ts splits them), the role of each (module, renderer, constraint, ...), the
 * `|`-separated modules with their text ranges, and where the cursor stands for completion.
 * Pure functions: no DOM, no CodeMirror (tested by query-language.spec.ts).
 */

export type TokenKind = 'word' | 'string' | 'regex' | 'op' | 'pipe' | 'paren' | 'comment';
export type Role = 'module' | 'renderer' | 'constraint' | 'constraintValue' | 'keyword' | 'flag' | 'number' | 'string' | 'regex' | 'comment' | 'pipe' | 'op' | 'paren' | 'ev';

export interface Token {
  kind: TokenKind;
  from: number;
  to: number;
  text: string;
  role: Role;
  /** index of the module (pipe-separated segment) holding the token */
  segment: number;
}

export interface ModuleSpan {
  index: number;
  /** the segment's text range, `|` excluded, whitespace trimmed */
  from: number;
  to: number;
  /** the module or renderer name, when the segment has one */
  name?: string;
  nameFrom?: number;
  isRenderer: boolean;
}

/** Renderers of the language (product-notes §2.6); the service's list comes from /api/info/rendermodules. */
export const KNOWN_RENDERERS = ['text', 'raw', 'hex', 'table', 'chart', 'gauge', 'numbercard', 'pcap', 'wordcloud', 'fdg', 'stackgraph', 'pointmap', 'heatmap', 'point2point'];

const OPS = ['==', '!=', '<=', '>=', '!~', '<', '>', '~', '='];
const SPECIAL = new Set(['|', '(', ')', '"', '`', '=', '<', '>', '~']);
const KEYWORDS = new Set(['by', 'over', 'as', 'limit', 'asc', 'desc']);
const CONSTRAINTS = new Set(['tag', 'start', 'end']);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const opAt = (q: string, i: number) => OPS.find((op) => q.startsWith(op, i));

function rawTokens(q: string): Array<Omit<Token, 'role' | 'segment'>> {
  const out: Array<Omit<Token, 'role' | 'segment'>> = [];
  let i = 0;
  const push = (kind: TokenKind, from: number, to: number) => out.push({ kind, from, to, text: q.slice(from, to) });
  while (i < q.length) {
    const c = q[i];
    if (isSpace(c)) {
      i++;
    } else if (q.startsWith('/*', i)) {
      const end = q.indexOf('*/', i + 2);
      const to = end < 0 ? q.length : end + 2;
      push('comment', i, to);
      i = to;
    } else if (q.startsWith('//', i)) {
      const end = q.indexOf('\n', i);
      const to = end < 0 ? q.length : end;
      push('comment', i, to);
      i = to;
    } else if (c === '|') {
      push('pipe', i, ++i);
    } else if (c === '(' || c === ')') {
      push('paren', i, ++i);
    } else if (c === '"') {
      let j = i + 1;
      while (j < q.length && q[j] !== '"') j += q[j] === '\\' && j + 1 < q.length ? 2 : 1;
      const to = Math.min(q.length, j + 1);
      push('string', i, to);
      i = to;
    } else if (c === '`') {
      const end = q.indexOf('`', i + 1);
      const to = end < 0 ? q.length : end + 1;
      push('regex', i, to);
      i = to;
    } else if (opAt(q, i)) {
      const op = opAt(q, i)!;
      push('op', i, i + op.length);
      i += op.length;
    } else {
      const from = i;
      while (i < q.length && !isSpace(q[i]) && !SPECIAL.has(q[i]) && !opAt(q, i)) i++;
      push('word', from, i);
    }
  }
  return out;
}

/** Every token of the query with its role. */
export function tokenize(q: string, renderers: ReadonlySet<string> = new Set(KNOWN_RENDERERS)): Token[] {
  const raw = rawTokens(q);
  const out: Token[] = [];
  let segment = 0;
  let seenHead = false; // the segment's module name was seen
  for (let k = 0; k < raw.length; k++) {
    const t = raw[k];
    let role: Role;
    if (t.kind === 'pipe') {
      segment++;
      seenHead = false;
      role = 'pipe';
    } else if (t.kind === 'comment') role = 'comment';
    else if (t.kind === 'string') role = 'string';
    else if (t.kind === 'regex') role = 'regex';
    else if (t.kind === 'paren') role = 'paren';
    else if (t.kind === 'op') role = 'op';
    else if (!seenHead && segment === 0 && CONSTRAINTS.has(t.text) && raw[k + 1]?.kind === 'op' && raw[k + 1].text === '=') {
      out.push({ ...t, role: 'constraint', segment }, { ...raw[k + 1], role: 'op', segment });
      const v = raw[k + 2];
      if (v && v.kind !== 'pipe') out.push({ ...v, role: 'constraintValue', segment });
      k += v && v.kind !== 'pipe' ? 2 : 1;
      continue;
    } else if (!seenHead) {
      seenHead = true;
      role = renderers.has(t.text) ? 'renderer' : 'module';
    } else if (/^-[A-Za-z]+$/.test(t.text)) role = 'flag';
    else if (/^-?\d+(\.\d+)?$/.test(t.text)) role = 'number';
    else if (KEYWORDS.has(t.text)) role = 'keyword';
    else role = 'ev';
    if (t.kind !== 'comment' && t.kind !== 'pipe' && role !== 'module' && role !== 'renderer') seenHead = true;
    out.push({ ...t, role, segment });
  }
  return out;
}

/** The modules (segments between pipes), as the service numbers them in ParseResponse.ModuleIndex. */
export function modules(q: string, renderers?: ReadonlySet<string>): ModuleSpan[] {
  const toks = tokenize(q, renderers);
  const pipes = toks.filter((t) => t.kind === 'pipe');
  const spans: ModuleSpan[] = [];
  for (let i = 0; i <= pipes.length; i++) {
    const segFrom = i === 0 ? 0 : pipes[i - 1].to;
    const segTo = i < pipes.length ? pipes[i].from : q.length;
    const inSeg = toks.filter((t) => t.segment === i && t.kind !== 'pipe' && t.kind !== 'comment');
    const head = inSeg.find((t) => t.role === 'module' || t.role === 'renderer');
    const body =
      i === 0
        ? inSeg.filter((t) => t.role !== 'constraint' && t.role !== 'constraintValue' && !(t.role === 'op' && t.text === '=' && toks[toks.indexOf(t) - 1]?.role === 'constraint'))
        : inSeg;
    const from = head?.from ?? body[0]?.from ?? segFrom;
    const last = inSeg[inSeg.length - 1];
    spans.push({
      index: i,
      from: Math.max(segFrom, from),
      to: Math.max(from, last ? last.to : segTo),
      name: head?.text,
      nameFrom: head?.from,
      isRenderer: head?.role === 'renderer',
    });
  }
  return spans;
}

/** Range to mark for a parse error at `moduleIndex` (the whole query when the index is past the end). */
export function errorRange(q: string, moduleIndex: number): { from: number; to: number } {
  const spans = modules(q);
  const m = spans[moduleIndex];
  if (!m || m.to <= m.from) return { from: 0, to: q.length };
  return { from: m.from, to: m.to };
}

/** "module 2 (regx)" for messages. */
export function describeModule(q: string, moduleIndex: number): string {
  const m = modules(q)[moduleIndex];
  return `module ${moduleIndex + 1}${m?.name ? ` (${m.name})` : ''}`;
}

/** Where completion of a module or renderer name applies at `pos`: the word's range, or null. */
export function moduleNameAt(q: string, pos: number): { from: number; to: number; prefix: string } | null {
  const toks = tokenize(q).filter((t) => t.kind !== 'comment');
  const inside = toks.find((t) => t.from < pos && pos <= t.to);
  if (inside && inside.kind !== 'word') return null;
  if (inside) return inside.role === 'module' || inside.role === 'renderer' ? { from: inside.from, to: inside.to, prefix: q.slice(inside.from, pos) } : null;
  // Between tokens: a module name may start here when nothing but constraints precede it in its segment.
  const before = toks.filter((t) => t.to <= pos);
  const last = before[before.length - 1];
  if (!last || last.kind === 'pipe') return { from: pos, to: pos, prefix: '' };
  if (last.role === 'constraintValue') return { from: pos, to: pos, prefix: '' };
  return null;
}

const MACRO_NAME_CHAR = /[A-Za-z0-9_-]/;

/**
 * Where completion of a macro call applies at `pos`: from its `$` to the end of the name typed so
 * far (`prefix`: the `$` and what stands before the cursor), or null when no `$` starts the word
 * before the cursor, or the `$` stands in a string, a regex or a comment (the service expands no
 * `$` there, src/query/macros.ts).
 */
export function macroNameAt(q: string, pos: number): { from: number; to: number; prefix: string } | null {
  let from = pos;
  while (from > 0 && MACRO_NAME_CHAR.test(q[from - 1])) from--;
  if (q[from - 1] !== '$') return null;
  from--;
  const quoted = tokenize(q).some((t) => (t.kind === 'string' || t.kind === 'regex' || t.kind === 'comment') && t.from <= from && from < t.to);
  if (quoted) return null;
  let to = pos;
  while (to < q.length && MACRO_NAME_CHAR.test(q[to])) to++;
  return { from, to, prefix: q.slice(from, pos) };
}

/**
 * The query of the histogram above an entry list: the person's query without its renderer,
 * counted in `width` buckets. A newline before the appended modules ends a trailing `//` comment.
 */
export function histogramQuery(q: string, width: string, renderers?: ReadonlySet<string>): string {
  const spans = modules(q, renderers);
  const last = spans[spans.length - 1];
  let kept = q;
  let keptSpans = spans;
  if (spans.length > 1 && last.isRenderer) {
    const pipe = tokenize(q, renderers)
      .filter((t) => t.kind === 'pipe')
      .pop()!;
    kept = q.slice(0, pipe.from);
    keptSpans = spans.slice(0, -1);
  } else if (spans.length === 1 && last.isRenderer) {
    kept = q.slice(0, last.from);
    keptSpans = [];
  }
  const hasModule = keptSpans.some((s) => s.name !== undefined);
  return `${kept.trimEnd()}\n${hasModule ? '| ' : ''}stats count over ${width} | chart count`;
}

/** How many arguments a macro takes: its highest `%%N%%`. */
export function macroArity(expansion: string): number {
  let n = 0;
  for (const m of expansion.matchAll(/%%(\d{1,3})%%/g)) n = Math.max(n, Number(m[1]));
  return n;
}
