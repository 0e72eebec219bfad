/**
 * `grep [-e EV] [-v] [-s] [-i] [-simple] pattern...`: substring match (`*` wildcard, `\*` a literal
 * star, `\xHH` a byte); an entry passes if any pattern matches (-s: all; -v: none).
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, readFlags } from './extract-common';

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The pieces a pattern's `*` wildcards separate (one piece with `simple`), as bytes: `\xHH` is a
 * byte, `\*` a star, `\\` a backslash; other backslashes stay as written.
 */
export function patternPieces(pattern: string, simple: boolean): Buffer[] {
  const pieces: Buffer[] = [];
  let cur: number[] = [];
  const text = (s: string) => cur.push(...Buffer.from(s, 'utf8'));
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const hex = c === '\\' ? /^x([0-9a-fA-F]{2})/.exec(pattern.slice(i + 1, i + 4)) : null;
    if (hex) {
      cur.push(parseInt(hex[1], 16));
      i += 3;
    } else if (c === '\\' && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) {
      text(pattern[++i]);
    } else if (c === '*' && !simple) {
      pieces.push(Buffer.from(cur));
      cur = [];
    } else {
      text(c);
    }
  }
  pieces.push(Buffer.from(cur));
  return pieces;
}

/** Do the pieces occur in this order (leftmost each time, which finds a match whenever there is one)? */
function piecesIn(d: Buffer | string, pieces: Array<Buffer | string>): boolean {
  let at = 0;
  for (const p of pieces) {
    if (p.length === 0) continue;
    const i = typeof d === 'string' ? d.indexOf(p as string, at) : d.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return true;
}

/** A matcher on bytes, or (case-insensitive) on lower-cased text. */
export function substringMatcher(pattern: string, opts: { simple?: boolean; ignoreCase?: boolean } = {}): (data: Buffer | string) => boolean {
  const pieces = patternPieces(pattern, opts.simple ?? false);
  if (opts.ignoreCase) {
    const lower = pieces.map((p) => p.toString('utf8').toLowerCase());
    return (d) => piecesIn((typeof d === 'string' ? d : d.toString('utf8')).toLowerCase(), lower);
  }
  return (d) => piecesIn(typeof d === 'string' ? Buffer.from(d, 'utf8') : d, pieces);
}

function readPatterns(r: ArgReader): string[] {
  const out: string[] = [];
  while (!r.done) out.push(r.value('pattern'));
  if (out.length === 0) throw new ModuleArgError('missing pattern argument');
  return out;
}

export function readTarget(e: Entry, ev: string | undefined, rt: RuntimeContext): Buffer | string | undefined {
  if (ev === undefined) return e.data;
  const v = getEV(e, ev, rt);
  if (v === undefined) return undefined;
  return Buffer.isBuffer(v) ? v : evToString(v);
}

export const grepModule: ModuleDef = {
  name: 'grep',
  info: 'Keep entries containing any of the patterns (substring, * wildcard, \\* a star, \\xHH a byte); -v: none of them; -s: all of them; -i ignores case; -simple: no wildcards; -e reads an EV',
  examples: ['grep error', 'grep -v "GET /health*"', 'grep -e user admin root', 'grep -s Mozilla Windows', 'grep -i -simple "a*b"'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', v: 'bool', s: 'bool', i: 'bool', simple: 'bool' }, { w: { kind: 'bool', what: 'word match; use the words module' } });
    const ev = optionalString(flags.e);
    const invert = flags.v === true;
    const strict = flags.s === true;
    const ignoreCase = flags.i === true;
    const simple = flags.simple === true;
    const patterns = readPatterns(r);
    const matchers = patterns.map((p) => substringMatcher(p, { simple, ignoreCase }));
    // Pushdown is an AND of byte conditions (storage splits a pattern on `*`): one pattern, all of
    // them (-s), or none of them (-v); never for case-insensitive or escaped patterns.
    const pushable = ev === undefined && !ignoreCase && !patterns.some((p) => p.includes('\\')) && (patterns.length === 1 || invert || strict);
    return {
      produced: [],
      consumed: consumedOf(ev),
      pushdownGrep: pushable ? patterns.map((pattern) => ({ pattern, invert })) : undefined,
      process(e, rt) {
        const target = readTarget(e, ev, rt);
        if (target === undefined) return false;
        // -v: no pattern may match (with or without -s, as the page says)
        if (invert) return !matchers.some((m) => m(target));
        return strict ? matchers.every((m) => m(target)) : matchers.some((m) => m(target));
      },
    };
  },
};
