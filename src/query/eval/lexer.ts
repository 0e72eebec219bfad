/** Tokens of an eval program (the text after `eval`, or a bare `( ... )` module). */
import { EvalSyntaxError } from './errors';

export type ETokKind = 'ident' | 'int' | 'float' | 'string' | 'op' | 'evref' | 'eof';

export interface EToken {
  kind: ETokKind;
  /** identifier, operator, string contents, EV name of `$(...)`, or number text */
  text: string;
  /** value of a number literal */
  num?: number;
  /** offset in the query */
  pos: number;
}

// longest first
const OPS = [
  '<<',
  '>>',
  '<=',
  '>=',
  '+=',
  '-=',
  '&&',
  '||',
  '++',
  '--',
  '==',
  '!=',
  '!~',
  '~',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '<',
  '>',
  '=',
  '!',
  '[',
  ']',
  ',',
  ';',
  '.',
  ':',
  '?',
  '(',
  ')',
  '{',
  '}',
];
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v' };
const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

function readString(src: string, i: number, base: number): [string, number] {
  let out = '';
  let j = i + 1;
  while (j < src.length && src[j] !== '"') {
    if (src[j] === '\\' && j + 1 < src.length) {
      const c = src[j + 1];
      const hex = c === 'x' ? /^[0-9a-fA-F]{2}/.exec(src.slice(j + 2)) : c === 'u' ? /^[0-9a-fA-F]{4}/.exec(src.slice(j + 2)) : null;
      if (hex) {
        out += String.fromCharCode(parseInt(hex[0], 16));
        j += 2 + hex[0].length;
        continue;
      }
      out += ESCAPES[c] ?? '\\' + c; // unknown escapes keep the backslash (regular expressions)
      j += 2;
    } else {
      out += src[j++];
    }
  }
  if (j >= src.length) throw new EvalSyntaxError('unterminated string', base + i);
  return [out, j + 1];
}

function readNumber(src: string, i: number, base: number): [EToken, number] {
  const rest = src.slice(i);
  const m = /^0[xX][0-9a-fA-F]+|^0[bB][01]+|^\d+(\.\d*)?([eE][-+]?\d+)?/.exec(rest)!;
  const text = m[0];
  const end = i + text.length;
  if (end < src.length && IDENT_PART.test(src[end])) throw new EvalSyntaxError(`invalid number "${text}${src[end]}"`, base + i);
  if (/^0[bB]/.test(text)) return [{ kind: 'int', text, num: parseInt(text.slice(2), 2), pos: base + i }, end];
  const isFloat = /[.eE]/.test(text) && !/^0[xX]/.test(text);
  return [{ kind: isFloat ? 'float' : 'int', text, num: Number(text), pos: base + i }, end];
}

/** Splits a program into tokens. `base` is the program's offset in the query (for messages). */
export function lexEval(src: string, base: number): EToken[] {
  const out: EToken[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith('//', i)) {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl + 1;
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new EvalSyntaxError('unterminated comment', base + i);
      i = end + 2;
    } else if (c === '"') {
      const [text, next] = readString(src, i, base);
      out.push({ kind: 'string', text, pos: base + i });
      i = next;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new EvalSyntaxError('unterminated string', base + i);
      out.push({ kind: 'string', text: src.slice(i + 1, end), pos: base + i });
      i = end + 1;
    } else if (src.startsWith('$(', i)) {
      const end = src.indexOf(')', i + 2);
      if (end < 0 || end === i + 2) throw new EvalSyntaxError('unterminated $( ) enumerated value name', base + i);
      out.push({ kind: 'evref', text: src.slice(i + 2, end), pos: base + i });
      i = end + 1;
    } else if (/\d/.test(c)) {
      const [tok, next] = readNumber(src, i, base);
      out.push(tok);
      i = next;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < src.length && IDENT_PART.test(src[j])) j++;
      out.push({ kind: 'ident', text: src.slice(i, j), pos: base + i });
      i = j;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) throw new EvalSyntaxError(`unexpected character "${c}"`, base + i);
      out.push({ kind: 'op', text: op, pos: base + i });
      i += op.length;
    }
  }
  out.push({ kind: 'eof', text: 'end of program', pos: base + src.length });
  return out;
}
