/**
 * User regular expressions are RE2's syntax, the product's (Go `regexp/syntax` with Perl flags).
 * `translateRe2` reads a pattern once, left to right, as RE2's parser does: what RE2 refuses is a
 * `Re2SyntaxError` worded as RE2 words it (`missing closing ]: [a-`) with the offset in the user's
 * pattern; what RE2 accepts becomes a JavaScript source of the same meaning.
 *
 * The source never needs the `i` or `u` flags: V8 runs patterns with either flag only on its
 * backtracking engine, never on the linear-time one that takes over catastrophic matches
 * (regexp-safety.ts). So `(?i)` spells letters out (`[aA]`), `.` is `[^\n]` (`[\s\S]` under `(?s)`),
 * `\s` is RE2's `[\t\n\f\r ]`, and `\A`/`\z` are `^`/`$` (never multiline: `(?m)` anchors are written
 * out). What JavaScript cannot say without those flags is refused with a message naming it:
 * Unicode classes (`\pL`), characters beyond U+FFFF inside a class, capture names that start with a digit.
 */

/** A pattern RE2 refuses (or that this service cannot run), with RE2's wording and where it is. */
export class Re2SyntaxError extends Error {
  constructor(
    /** RE2's error code text: "missing closing ]" */
    readonly code: string,
    /** the offending part of the pattern, as RE2 reports it */
    readonly expr: string,
    /** where it starts in the pattern (UTF-16 units, as the query is written) */
    readonly offset: number,
    hint?: string,
  ) {
    super(`${code}${expr ? `: ${expr}` : ''}${hint ? ` (${hint})` : ''} at offset ${offset} of the expression`);
    this.name = 'Re2SyntaxError';
  }
}

/** RE2's largest repetition count (and product of nested counts). */
const MAX_REPEAT = 1000;
/** RE2's deepest nesting. */
const MAX_DEPTH = 1000;

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7f',
  blank: '\\t ',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};
/** JavaScript's \s beyond RE2's [\t\n\f\r ]: added to \S inside a class so it means RE2's \S. */
const JS_ONLY_SPACES = '\\v\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const PERL_CLASS: Record<string, { alone: string; inClass: string }> = {
  d: { alone: '\\d', inClass: '\\d' },
  D: { alone: '\\D', inClass: '\\D' },
  w: { alone: '\\w', inClass: '\\w' },
  W: { alone: '\\W', inClass: '\\W' },
  s: { alone: '[\\t\\n\\f\\r ]', inClass: '\\t\\n\\f\\r ' },
  S: { alone: '[^\\t\\n\\f\\r ]', inClass: `\\S${JS_ONLY_SPACES}` },
};

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

interface Atom {
  src: string;
  /** needs (?:...) before a quantifier (an assertion, a multi-unit character) */
  wrap: boolean;
  /** product of the counted repetitions inside (RE2's nested repeat bound) */
  product: number;
}

interface Frame {
  /** where its ( is; -1 for the whole pattern */
  open: number;
  /** JS text of the group's start: "(", "(?:", "(?<name>" */
  head: string;
  /** flags outside the group, restored at its ) */
  outer: Flags;
  alternatives: string[];
  atoms: Atom[];
  product: number;
}

const isWordAscii = (c: string) => /^[0-9A-Za-z]$/.test(c);
const hex = (cp: number) => `\\u${cp.toString(16).padStart(4, '0')}`;

/** One code point as JavaScript source outside a class. */
function escapeChar(cp: number): string {
  if (cp < 0x20 || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) return hex(cp);
  const c = String.fromCodePoint(cp);
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** One code point as JavaScript source inside a class. */
function escapeClassChar(cp: number): string {
  if (cp < 0x20 || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) return hex(cp);
  const c = String.fromCodePoint(cp);
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

/** The other case of a BMP character that has exactly one (simple folding, as near as JavaScript gets). */
function otherCase(cp: number): number | undefined {
  const c = String.fromCodePoint(cp);
  for (const o of [c.toLowerCase(), c.toUpperCase()]) {
    if (o !== c && o.length === 1 && o.toLowerCase() === c.toLowerCase()) return o.codePointAt(0);
  }
  return undefined;
}

export interface Re2Translation {
  /** JavaScript source of the same meaning (no flags needed) */
  source: string;
  /** named groups, in order */
  names: string[];
}

/** Reads an RE2 pattern; throws Re2SyntaxError where RE2 would refuse it. */
export function translateRe2(pattern: string): Re2Translation {
  return new Translator(pattern).run();
}

class Translator {
  private i = 0;
  private flags: Flags = { i: false, m: false, s: false, U: false };
  private readonly stack: Frame[] = [];
  private readonly names: string[] = [];
  /** where the last repetition operator began, while it is the last thing read */
  private lastRepeat = -1;
  /** the next ":]" found (-1: none is left) */
  private posixClose = -2;

  constructor(private readonly p: string) {}

  private fail(code: string, expr: string, offset: number, hint?: string): never {
    throw new Re2SyntaxError(code, expr, offset, hint);
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1];
  }

  private push(atom: Atom): void {
    this.top.atoms.push(atom);
  }

  run(): Re2Translation {
    this.stack.push({ open: -1, head: '', outer: this.flags, alternatives: [], atoms: [], product: 1 });
    const p = this.p;
    while (this.i < p.length) {
      const start = this.i;
      const c = p[this.i];
      let repeated = false;
      switch (c) {
        case '(':
          this.openGroup();
          break;
        case '|':
          this.endAlternative();
          this.i++;
          break;
        case ')':
          this.closeGroup();
          break;
        case '^':
          this.push({ src: this.flags.m ? '(?:^|(?<=\\n))' : '^', wrap: true, product: 1 });
          this.i++;
          break;
        case '$':
          this.push({ src: this.flags.m ? '(?:$|(?=\\n))' : '$', wrap: true, product: 1 });
          this.i++;
          break;
        case '.':
          this.push({ src: this.flags.s ? '[\\s\\S]' : '[^\\n]', wrap: false, product: 1 });
          this.i++;
          break;
        case '[':
          this.push({ src: this.readClass(), wrap: false, product: 1 });
          break;
        case '*':
        case '+':
        case '?':
          this.repeat(start, this.i + 1, c, 0, 0);
          repeated = true;
          break;
        case '{': {
          const r = this.readCount(this.i);
          if (!r) {
            this.literal(0x7b);
            this.i++;
            break;
          }
          if (r.min < 0 || r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) this.fail('invalid repeat count', p.slice(start, r.end), start);
          this.repeat(start, r.end, r.max === r.min ? `{${r.min}}` : r.max < 0 ? `{${r.min},}` : `{${r.min},${r.max}}`, r.min, r.max);
          repeated = true;
          break;
        }
        case '\\':
          this.escape();
          break;
        default: {
          const cp = p.codePointAt(this.i)!;
          if (cp >= 0xd800 && cp <= 0xdfff) this.fail('invalid UTF-8', p.slice(this.i), this.i);
          this.literal(cp);
          this.i += cp > 0xffff ? 2 : 1;
        }
      }
      if (!repeated) this.lastRepeat = -1;
      else this.lastRepeat = start;
    }
    if (this.stack.length > 1) this.fail('missing closing )', p, this.top.open);
    this.endAlternative();
    return { source: this.top.alternatives.join('|'), names: this.names };
  }

  private literal(cp: number): void {
    const other = this.flags.i ? otherCase(cp) : undefined;
    if (other !== undefined) this.push({ src: `[${escapeClassChar(cp)}${escapeClassChar(other)}]`, wrap: false, product: 1 });
    else this.push({ src: escapeChar(cp), wrap: cp > 0xffff, product: 1 });
  }

  private endAlternative(): void {
    const f = this.top;
    f.alternatives.push(f.atoms.map((a) => a.src).join(''));
    for (const a of f.atoms) f.product = Math.max(f.product, a.product);
    f.atoms = [];
  }

  private openGroup(): void {
    const p = this.p;
    const at = this.i;
    if (this.stack.length > MAX_DEPTH) this.fail('expression nests too deeply', p, at);
    if (p[at + 1] !== '?') {
      this.stack.push({ open: at, head: '(', outer: this.flags, alternatives: [], atoms: [], product: 1 });
      this.i++;
      return;
    }
    const named = (p.length - at > 4 && p[at + 2] === 'P' && p[at + 3] === '<') || (p.length - at > 3 && p[at + 2] === '<');
    if (named) {
      const nameAt = p[at + 2] === 'P' ? at + 4 : at + 3;
      const end = p.indexOf('>', at);
      const look = p[at + 2] === '<' && (p[at + 3] === '=' || p[at + 3] === '!') ? 'a lookbehind; RE2 has none' : undefined;
      if (end < 0) this.fail('invalid named capture', p.slice(at), at, look);
      const name = p.slice(nameAt, end);
      if (!/^[A-Za-z0-9_]+$/.test(name)) this.fail('invalid named capture', p.slice(at, end + 1), at, look);
      if (/^[0-9]/.test(name)) this.fail('capture group names starting with a digit are not supported here', p.slice(at, end + 1), at);
      if (this.names.includes(name)) this.fail('duplicate capture group name', p.slice(at, end + 1), at);
      this.names.push(name);
      this.stack.push({ open: at, head: `(?<${name}>`, outer: this.flags, alternatives: [], atoms: [], product: 1 });
      this.i = end + 1;
      return;
    }
    // Flags, a non-capturing group, or both: (?i) (?-s) (?i:...) (?:...)
    const flags = { ...this.flags };
    let negate = false;
    let sawFlag = false;
    for (let j = at + 2; j < p.length; j++) {
      const c = p[j];
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        flags[c] = !negate;
        sawFlag = true;
      } else if (c === '-' && !negate) {
        negate = true;
        sawFlag = false;
      } else if ((c === ':' || c === ')') && (!negate || sawFlag)) {
        if (c === ':') this.stack.push({ open: at, head: '(?:', outer: this.flags, alternatives: [], atoms: [], product: 1 });
        this.flags = flags;
        this.i = j + 1;
        return;
      } else {
        const look = j === at + 2 && (c === '=' || c === '!') ? 'a lookahead; RE2 has none' : undefined;
        this.fail('invalid or unsupported Perl syntax', p.slice(at, j + 1), at, look);
      }
    }
    this.fail('invalid or unsupported Perl syntax', p.slice(at), at);
  }

  private closeGroup(): void {
    if (this.stack.length === 1) this.fail('unexpected )', this.p, this.i);
    this.endAlternative();
    const f = this.stack.pop()!;
    this.flags = f.outer;
    this.push({ src: `${f.head}${f.alternatives.join('|')})`, wrap: false, product: f.product });
    this.i++;
  }

  /** A repetition operator from `start` to `end` (exclusive, before a lazy `?`): `op` as JavaScript writes it. */
  private repeat(start: number, end: number, op: string, min: number, max: number): void {
    const p = this.p;
    const lazyMark = p[end] === '?';
    const after = lazyMark ? end + 1 : end;
    if (this.lastRepeat >= 0) this.fail('invalid nested repetition operator', p.slice(this.lastRepeat, after), this.lastRepeat);
    const atoms = this.top.atoms;
    if (atoms.length === 0) this.fail('missing argument to repetition operator', p.slice(start, after), start);
    const atom = atoms[atoms.length - 1];
    let product = atom.product;
    if (op.startsWith('{') && (min >= 2 || max >= 2)) {
      const m = max < 0 ? min : max;
      product = m * Math.max(1, atom.product);
      if (m > 0 && product > MAX_REPEAT) this.fail('invalid repeat count', p.slice(start, end), start);
    }
    const lazy = lazyMark !== this.flags.U;
    // A repeated atom is wrapped before another repetition (RE2 takes `a*(?i)*`, JavaScript not `a**`).
    atoms[atoms.length - 1] = { src: `${atom.wrap ? `(?:${atom.src})` : atom.src}${op}${lazy ? '?' : ''}`, wrap: true, product };
    this.i = after;
  }

  /** `{n}`, `{n,}` or `{n,m}` at `at` as RE2 reads it (no leading zeros); undefined when `{` is a literal. min -1: too big. */
  private readCount(at: number): { min: number; max: number; end: number } | undefined {
    const re = /\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/y;
    re.lastIndex = at;
    const m = re.exec(this.p);
    if (!m) return undefined;
    const num = (s: string) => (s.length > 8 ? -1 : Number(s));
    const min = num(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? -1 : num(m[3]);
    const tooBig = min < 0 || (m[3] !== undefined && max < 0);
    return { min: tooBig ? -1 : min, max, end: re.lastIndex };
  }

  private escape(): void {
    const p = this.p;
    const at = this.i;
    const c = p[at + 1];
    switch (c) {
      case 'A':
        this.push({ src: '^', wrap: true, product: 1 });
        this.i += 2;
        return;
      case 'z':
        this.push({ src: '$', wrap: true, product: 1 });
        this.i += 2;
        return;
      case 'b':
      case 'B':
        this.push({ src: `\\${c}`, wrap: true, product: 1 });
        this.i += 2;
        return;
      case 'C':
        this.fail('invalid escape sequence', '\\C', at);
        break;
      case 'Q': {
        const stop = p.indexOf('\\E', at + 2);
        const text = p.slice(at + 2, stop < 0 ? p.length : stop);
        for (const ch of text) this.literal(ch.codePointAt(0)!);
        this.i = stop < 0 ? p.length : stop + 2;
        return;
      }
      case 'p':
      case 'P':
        this.unicodeClass(at);
        break;
      default:
        if (c !== undefined && PERL_CLASS[c]) {
          this.push({ src: PERL_CLASS[c].alone, wrap: false, product: 1 });
          this.i += 2;
          return;
        }
    }
    const { cp, end } = this.readEscape(at);
    this.i = end;
    this.literal(cp);
  }

  private unicodeClass(at: number): never {
    const p = this.p;
    if (p[at + 2] === '{') {
      const end = p.indexOf('}', at);
      if (end < 0) this.fail('invalid character class range', p.slice(at), at);
      this.fail('Unicode character classes are not supported here', p.slice(at, end + 1), at, 'use ranges such as [\\x{370}-\\x{3ff}]');
    }
    this.fail('Unicode character classes are not supported here', p.slice(at, at + 3), at, 'use ranges such as [\\x{370}-\\x{3ff}]');
  }

  /** A single-character escape at `at` (the backslash): its code point and where it ends. */
  private readEscape(at: number): { cp: number; end: number } {
    const p = this.p;
    let j = at + 1;
    if (j >= p.length) this.fail('trailing backslash at end of expression', '', at);
    const c = p.codePointAt(j)!;
    const ch = String.fromCodePoint(c);
    j += ch.length;
    const octal = (d: string | undefined) => d !== undefined && d >= '0' && d <= '7';
    if (c < 0x80 && !isWordAscii(ch)) return { cp: c, end: j };
    if (ch === '0' || (ch >= '1' && ch <= '7' && octal(p[j]))) {
      let v = c - 0x30;
      for (let k = 1; k < 3 && octal(p[j]); k++) v = v * 8 + (p.charCodeAt(j++) - 0x30);
      return { cp: v, end: j };
    }
    if (ch >= '1' && ch <= '9') this.fail('invalid escape sequence', p.slice(at, j), at, 'a backreference; RE2 has none');
    if (ch === 'x') {
      if (p[j] === '{') {
        const close = p.indexOf('}', j);
        const digits = close < 0 ? '' : p.slice(j + 1, close);
        const v = /^[0-9A-Fa-f]{1,8}$/.test(digits) ? parseInt(digits, 16) : Number.NaN;
        if (!(v <= 0x10ffff)) this.fail('invalid escape sequence', p.slice(at, close < 0 ? p.length : close + 1), at);
        return { cp: v, end: close + 1 };
      }
      const two = p.slice(j, j + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(two)) this.fail('invalid escape sequence', p.slice(at, Math.min(p.length, j + 2)), at);
      return { cp: parseInt(two, 16), end: j + 2 };
    }
    const simple: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (simple[ch] !== undefined) return { cp: simple[ch], end: j };
    this.fail('invalid escape sequence', p.slice(at, j), at);
  }

  /** A class `[...]` at this.i: JavaScript class source. */
  private readClass(): string {
    const p = this.p;
    const at = this.i;
    let j = at + 1;
    let out = '[';
    if (p[j] === '^') {
      out += '^';
      j++;
    }
    let first = true;
    while (j >= p.length || p[j] !== ']' || first) {
      if (j >= p.length) this.fail('missing closing ]', p.slice(at), at);
      first = false;
      if (p.startsWith('[:', j)) {
        // one search when no ":]" follows: many "[:" must not cost a search each (quadratic)
        if (this.posixClose !== -1 && this.posixClose < j + 2) this.posixClose = p.indexOf(':]', j + 2);
        const close = this.posixClose;
        if (close >= 0) {
          const full = p.slice(j, close + 2);
          const neg = full[2] === '^';
          const name = full.slice(neg ? 3 : 2, -2);
          const set = Object.hasOwn(POSIX, name) ? POSIX[name] : undefined;
          if (set === undefined) this.fail('invalid character class range', full, j);
          if (neg) this.fail('negated POSIX classes inside a class are not supported here', full, j);
          out += set;
          j = close + 2;
          continue;
        }
      }
      if (p[j] === '\\' && (p[j + 1] === 'p' || p[j + 1] === 'P')) this.unicodeClass(j);
      if (p[j] === '\\' && p[j + 1] !== undefined && PERL_CLASS[p[j + 1]]) {
        out += PERL_CLASS[p[j + 1]].inClass;
        j += 2;
        continue;
      }
      const rangeAt = j;
      const lo = this.classChar(j, at);
      j = lo.end;
      let hi = lo;
      if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
        hi = this.classChar(j + 1, at);
        j = hi.end;
        if (hi.cp < lo.cp) this.fail('invalid character class range', p.slice(rangeAt, j), rangeAt);
      }
      if (hi.cp > 0xffff) this.fail('characters beyond U+FFFF inside a class are not supported here', p.slice(rangeAt, j), rangeAt);
      out += lo.cp === hi.cp ? escapeClassChar(lo.cp) : `${escapeClassChar(lo.cp)}-${escapeClassChar(hi.cp)}`;
      if (this.flags.i) out += this.otherCases(lo.cp, hi.cp);
    }
    this.i = j + 1;
    return `${out}]`;
  }

  /** The other cases of a range under (?i): ASCII letters as ranges, a single other character as itself. */
  private otherCases(lo: number, hi: number): string {
    let out = '';
    const part = (a: number, b: number, shift: number) => {
      const from = Math.max(lo, a);
      const to = Math.min(hi, b);
      if (from <= to) out += `${escapeClassChar(from + shift)}-${escapeClassChar(to + shift)}`;
    };
    part(0x61, 0x7a, -0x20);
    part(0x41, 0x5a, 0x20);
    if (lo === hi && lo > 0x7f) {
      const o = otherCase(lo);
      if (o !== undefined) out += escapeClassChar(o);
    }
    return out;
  }

  private classChar(j: number, classAt: number): { cp: number; end: number } {
    const p = this.p;
    if (j >= p.length) this.fail('missing closing ]', p.slice(classAt), classAt);
    if (p[j] === '\\') return this.readEscape(j);
    const cp = p.codePointAt(j)!;
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('invalid UTF-8', p.slice(j), j);
    return { cp, end: j + (cp > 0xffff ? 2 : 1) };
  }
}
