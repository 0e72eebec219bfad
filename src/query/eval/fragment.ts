/**
 * Code fragments in a query: `eval <program>` and a bare `( <program> )` module. Inside them `||`
 * is a logical or and `|` inside brackets a bitwise or, so the query lexer cannot split modules
 * on `|` there; it asks `lexCodeFragment` instead. A fragment runs to the first `|` outside
 * brackets, strings and comments that is not part of `||`.
 */
import type { Token } from '../lexer';

export interface FragmentLex {
  /** the `eval` word (when written) and one `fragment` token with the raw program text */
  tokens: Token[];
  end: number;
  /** comment ranges inside the fragment (removed from the parsed query text) */
  comments: Array<[number, number]>;
}

/** True when the tokens so far are only `key=value` constraints: the next token starts a module. */
function atModuleHead(tokens: Token[]): boolean {
  if (tokens.length % 3 !== 0) return false;
  for (let i = 0; i < tokens.length; i += 3) {
    const [k, op, v] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (k.kind !== 'word' || op.kind !== 'op' || op.value !== '=' || (v.kind !== 'word' && v.kind !== 'string')) return false;
  }
  return true;
}

const WORD_END = /[\s|(/]/;

/** Where the program text after `at` ends; an error message for an unterminated string or comment. */
function scan(q: string, at: number, comments: Array<[number, number]>): number | string {
  let depth = 0;
  let i = at;
  while (i < q.length) {
    const c = q[i];
    if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < q.length && q[j] !== c) j += c === '"' && q[j] === '\\' ? 2 : 1;
      if (j >= q.length) return `unterminated ${c === '"' ? 'quoted' : 'backtick'} string starting at offset ${i}`;
      i = j + 1;
    } else if (q.startsWith('$(', i)) {
      const j = q.indexOf(')', i);
      if (j < 0) return `unterminated $( ) starting at offset ${i}`;
      i = j + 1;
    } else if (q.startsWith('//', i) || q.startsWith('/*', i)) {
      const block = q[i + 1] === '*';
      let j = block ? q.indexOf('*/', i + 2) : q.indexOf('\n', i);
      if (j < 0 && block) return `unterminated comment starting at offset ${i}`;
      j = j < 0 ? q.length : block ? j + 2 : j;
      comments.push([i, j]);
      i = j;
    } else if (c === '|') {
      if (q[i + 1] === '|') i += 2;
      else if (depth > 0) i++;
      else return i;
    } else {
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  }
  return i;
}

/**
 * At offset `i` of the query, with `tokens` the current segment so far: lexes an `eval ...` or
 * `( ... )` module as a fragment. Undefined when no fragment starts here; a string is an error.
 */
export function lexCodeFragment(q: string, i: number, tokens: Token[]): FragmentLex | string | undefined {
  const isEval = q.startsWith('eval', i) && (i + 4 === q.length || WORD_END.test(q[i + 4]));
  if ((!isEval && q[i] !== '(') || !atModuleHead(tokens)) return undefined;
  const comments: Array<[number, number]> = [];
  const start = isEval ? i + 4 : i;
  const end = scan(q, start, comments);
  if (typeof end === 'string') return end;
  const out: Token[] = [];
  if (isEval) out.push({ kind: 'word', value: 'eval', quoted: false, pos: i });
  out.push({ kind: 'fragment', value: q.slice(start, end), quoted: false, pos: start });
  return { tokens: out, end, comments };
}
