import { Re2SyntaxError, translateRe2 } from '../query/re2';

/**
 * An actionable's trigger pattern. The product's console stores JavaScript regular expressions,
 * often as a literal (`/\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b/g`); this service reads the text
 * between the slashes as RE2 reads it (the language of every other pattern here, re2.ts), so
 * what it accepts means the same in the console's JavaScript, and what RE2 refuses (a
 * lookaround, a backreference) is a 400 worded as RE2 words it.
 *
 * RE2 itself runs in linear time, but the console runs triggers with the browser's backtracking
 * engine. So the shapes that make a backtracking engine take exponential time are refused too:
 * an unbounded repetition of something that itself repeats without bound with nothing required
 * beside it (`(a+)+`, `(a*b?)*`, `(.*)*`), and an unbounded repetition of alternatives of which
 * one can match nothing or two are the same (`(a|)*`, `(a|a)+`).
 */
export interface TriggerSource {
  /** the pattern without the literal's slashes */
  body: string;
  /** the literal's flags (`gi`), '' when the pattern was not written as a literal */
  flags: string;
}

/** `/body/flags` (flags among dgimsuyv) is a literal; anything else is the pattern itself. */
export function triggerSource(pattern: string): TriggerSource {
  const m = /^\/([\s\S]+)\/([dgimsuyv]*)$/.exec(pattern);
  return m ? { body: m[1], flags: m[2] } : { body: pattern, flags: '' };
}

/** Repetitions of "any character" a pattern may hold: each more multiplies a failing match's work by the value's length. */
export const MAX_WIDE_REPETITIONS = 3;

/** Why a pattern is refused: RE2's syntax error, the repetition that makes it catastrophic, or too many repetitions of any character. */
export type PatternProblem = { kind: 'syntax'; message: string } | { kind: 'unsafe'; part: string } | { kind: 'wide'; count: number };

/** undefined when the pattern is fine. */
export function patternProblem(pattern: string): PatternProblem | undefined {
  const { body, flags } = triggerSource(pattern);
  try {
    translateRe2(flags.includes('i') ? `(?i)${body}` : body);
  } catch (err) {
    if (err instanceof Re2SyntaxError) {
      // The offset of the literal's body is the user's pattern's, less the (?i) written in front.
      const shift = (flags.includes('i') ? -4 : 0) + (body === pattern ? 0 : 1);
      return { kind: 'syntax', message: new Re2SyntaxError(err.code, err.expr, Math.max(0, err.offset + shift)).message };
    }
    throw err;
  }
  const part = catastrophicPart(body);
  if (part !== undefined) return { kind: 'unsafe', part };
  const wide = wideRepetitions(body);
  return wide > MAX_WIDE_REPETITIONS ? { kind: 'wide', count: wide } : undefined;
}

/** An atom that matches (nearly) any character: `.`, `\C`, `[\s\S]` and its kin. */
const ANY = /^(?:\.|\\C|\[(?:\\s\\S|\\S\\s|\\w\\W|\\W\\w|\\d\\D|\\D\\d)\])$/;

/**
 * How many unbounded repetitions of any character the pattern holds (`.*a.*b` has two). A
 * backtracking engine tries every split of a failing value between them: k of them cost the
 * value's length to the power k.
 */
export function wideRepetitions(body: string): number {
  let n = 0;
  const visit = (seqs: Piece[][]) => {
    for (const seq of seqs)
      for (const p of seq) {
        if (p.alts) visit(p.alts);
        else if (p.unbounded && ANY.test(p.atom)) n++;
      }
  };
  visit(new Parser(body).alternatives());
  return n;
}

/** A parsed piece: an atom or a group, with its repetition. */
interface Piece {
  /** as written, with its repetition */
  text: string;
  /** as written, without its repetition */
  atom: string;
  /** alternatives of a group; undefined for an atom */
  alts?: Piece[][];
  min: number;
  unbounded: boolean;
}

const nullableSeq = (seq: Piece[]): boolean => seq.every(nullable);
function nullable(p: Piece): boolean {
  if (p.min === 0) return true;
  if (!p.alts) return /^(?:\^|\$|\\[bBAz]|\(\?[a-zA-Z-]*\))$/.test(p.atom);
  return p.alts.some(nullableSeq);
}
/** The piece repeats without bound, or something inside it does. */
const repeats = (p: Piece): boolean => p.unbounded || (p.alts ?? []).some((seq) => seq.some(repeats));

/** The first part of a (syntactically valid) RE2 pattern that a backtracking engine may take exponential time over. */
export function catastrophicPart(body: string): string | undefined {
  const top = new Parser(body).alternatives();
  let found: string | undefined;
  const visit = (seqs: Piece[][]) => {
    for (const seq of seqs) {
      for (const p of seq) {
        if (found !== undefined || !p.alts) continue;
        if (p.unbounded && dangerous(p.alts)) found = p.text;
        else visit(p.alts);
      }
    }
  };
  visit(top);
  return found;
}

/** The body of an unboundedly repeated group that can match one text in many ways. */
function dangerous(alts: Piece[][]): boolean {
  if (alts.length > 1) {
    if (alts.some(nullableSeq)) return true;
    const texts = alts.map((seq) => seq.map((p) => p.text).join(''));
    if (new Set(texts).size < texts.length) return true;
  }
  // One repeating piece with only optional company: the outer and inner repetitions split a run in every way.
  return alts.some((seq) => seq.some((p, i) => repeats(p) && seq.every((q, j) => j === i || nullable(q))));
}

/** Reads the structure of a pattern RE2 accepted (translateRe2 has checked its syntax). */
class Parser {
  private i = 0;
  constructor(private readonly p: string) {}

  alternatives(): Piece[][] {
    const alts: Piece[][] = [[]];
    while (this.i < this.p.length && this.p[this.i] !== ')') {
      if (this.p[this.i] === '|') {
        this.i++;
        alts.push([]);
        continue;
      }
      const piece = this.piece();
      if (piece) alts[alts.length - 1].push(piece);
    }
    return alts;
  }

  private piece(): Piece | undefined {
    const start = this.i;
    const p = this.p;
    let alts: Piece[][] | undefined;
    if (p[this.i] === '(') {
      this.i++;
      if (p[this.i] === '?') {
        // (?flags) alone sets flags; (?flags:...), (?:...), (?P<n>...), (?<n>...) open a group.
        const m = /^\?(?:P?<[^>]*>|[a-zA-Z-]*(:|\)))/.exec(p.slice(this.i));
        if (m && m[1] === ')') {
          this.i += m[0].length;
          const atom = p.slice(start, this.i);
          return { text: atom, atom, min: 1, unbounded: false };
        }
        this.i += m ? m[0].length : 1;
      }
      alts = this.alternatives();
      this.i++; // )
    } else if (p[this.i] === '[') {
      this.skipClass();
    } else if (p[this.i] === '\\') {
      if (p[this.i + 1] === 'Q') {
        const end = p.indexOf('\\E', this.i + 2);
        this.i = end < 0 ? p.length : end + 2;
      } else if (/[pP]/.test(p[this.i + 1] ?? '') && p[this.i + 2] === '{') {
        this.i = p.indexOf('}', this.i) + 1;
      } else if (p[this.i + 1] === 'x' && p[this.i + 2] === '{') {
        this.i = p.indexOf('}', this.i) + 1;
      } else {
        this.i += 2;
      }
    } else {
      this.i += p.codePointAt(this.i)! > 0xffff ? 2 : 1;
    }
    const atom = p.slice(start, this.i);
    let min = 1;
    let unbounded = false;
    for (;;) {
      const q = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(p.slice(this.i));
      if (!q) break;
      this.i += q[0].length;
      if (q[1]) {
        if (q[1] !== '+') min = 0;
        if (q[1] !== '?') unbounded = true;
      } else {
        if (Number(q[2]) === 0) min = 0;
        if (q[3] && !q[4]) unbounded = true;
      }
    }
    return { text: p.slice(start, this.i), atom, alts, min, unbounded };
  }

  /** [...] with RE2's rules: a ] first is a character, [:name:] and escapes inside. */
  private skipClass(): void {
    const p = this.p;
    this.i++;
    if (p[this.i] === '^') this.i++;
    if (p[this.i] === ']') this.i++;
    while (this.i < p.length && p[this.i] !== ']') {
      if (p[this.i] === '\\') this.i += 2;
      else if (p.startsWith('[:', this.i) && p.indexOf(':]', this.i + 2) > 0) this.i = p.indexOf(':]', this.i + 2) + 2;
      else this.i++;
    }
    this.i++;
  }
}
