/**
 * Lexer: turns a query string into tokens split into pipe-separated segments.
 * Handles comments, double-quoted strings (with escapes) and backtick raw strings.
 */
import { lexCodeFragment } from './eval/fragment';
import { ParseError } from './types';

/** `fragment`: the raw program text of an `eval ...` or bare `( ... )` module (eval/fragment.ts) */
export type TokenKind = 'word' | 'string' | 'op' | 'lparen' | 'rparen' | 'fragment';

export interface Token {
  kind: TokenKind;
  /** unquoted text (escapes processed for "..." strings) */
  value: string;
  /** true for "..." and `...` tokens */
  quoted: boolean;
  /** offset of the token's first character in the query */
  pos: number;
}

export interface LexResult {
  /** tokens of each `|`-separated segment, in order */
  segments: Token[][];
  /** the query with comments removed and whitespace trimmed */
  stripped: string;
}

const OPS = ['==', '!=', '<=', '>=', '!~', '<', '>', '~', '='];
const SPECIAL = new Set(['|', '(', ')', '"', '`', '=', '<', '>', '~']);
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', t: '\t', n: '\n', r: '\r' };

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function opAt(q: string, i: number): string | undefined {
  return OPS.find((op) => q.startsWith(op, i));
}

export function lex(query: string): LexResult {
  const segments: Token[][] = [[]];
  const comments: Array<[number, number]> = [];
  let i = 0;
  let frag: ReturnType<typeof lexCodeFragment>;
  const fail = (msg: string): never => {
    throw new ParseError(`SyntaxError: ${msg}`, segments.length - 1);
  };
  while (i < query.length) {
    const c = query[i];
    if (isSpace(c)) {
      i++;
    } else if (query.startsWith('/*', i)) {
      const end = query.indexOf('*/', i + 2);
      if (end < 0) fail(`unterminated comment starting at offset ${i}`);
      comments.push([i, end + 2]);
      i = end + 2;
    } else if (query.startsWith('//', i)) {
      let end = query.indexOf('\n', i);
      if (end < 0) end = query.length;
      comments.push([i, end]);
      i = end;
    } else if ((frag = lexCodeFragment(query, i, segments[segments.length - 1])) !== undefined) {
      if (typeof frag === 'string') fail(frag);
      else {
        segments[segments.length - 1].push(...frag.tokens);
        comments.push(...frag.comments);
        i = frag.end;
      }
    } else if (c === '|') {
      segments.push([]);
      i++;
    } else if (c === '(' || c === ')') {
      segments[segments.length - 1].push({ kind: c === '(' ? 'lparen' : 'rparen', value: c, quoted: false, pos: i });
      i++;
    } else if (c === '"') {
      i = lexDoubleQuoted(query, i, segments[segments.length - 1], fail);
    } else if (c === '`') {
      const end = query.indexOf('`', i + 1);
      if (end < 0) fail(`unterminated backtick string starting at offset ${i}`);
      segments[segments.length - 1].push({ kind: 'string', value: query.slice(i + 1, end), quoted: true, pos: i });
      i = end + 1;
    } else if (opAt(query, i)) {
      const op = opAt(query, i)!;
      segments[segments.length - 1].push({ kind: 'op', value: op, quoted: false, pos: i });
      i += op.length;
    } else {
      const start = i;
      while (i < query.length && !isSpace(query[i]) && !SPECIAL.has(query[i]) && !opAt(query, i)) i++;
      segments[segments.length - 1].push({ kind: 'word', value: query.slice(start, i), quoted: false, pos: start });
    }
  }
  return { segments, stripped: stripComments(query, comments) };
}

function lexDoubleQuoted(q: string, start: number, out: Token[], fail: (m: string) => never): number {
  let i = start + 1;
  let value = '';
  while (i < q.length && q[i] !== '"') {
    if (q[i] === '\\' && i + 1 < q.length) {
      const esc = ESCAPES[q[i + 1]];
      value += esc ?? q[i] + q[i + 1]; // unknown escapes keep the backslash (regex friendly)
      i += 2;
    } else {
      value += q[i++];
    }
  }
  if (i >= q.length) fail(`unterminated quoted string starting at offset ${start}`);
  out.push({ kind: 'string', value, quoted: true, pos: start });
  return i + 1;
}

function stripComments(q: string, comments: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [s, e] of comments) {
    out += q.slice(at, s);
    at = e;
  }
  out += q.slice(at);
  return out.trim();
}
