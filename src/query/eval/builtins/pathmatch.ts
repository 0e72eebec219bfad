/**
 * Go's path.Match, ported: `*` (no `/`), `?`, `[...]` classes with ranges and `^`, `\` escapes.
 * No regular expression, no backtracking beyond one chunk per star: at most O(pattern × name).
 */
class BadPattern extends Error {}

/** Splits off the leading stars and the chunk up to the next star outside a class. */
function scanChunk(p: string[]): { star: boolean; chunk: string[]; rest: string[] } {
  let i = 0;
  while (i < p.length && p[i] === '*') i++;
  const star = i > 0;
  let inRange = false;
  let j = i;
  for (; j < p.length; j++) {
    const c = p[j];
    if (c === '\\') {
      if (j + 1 < p.length) j++;
    } else if (c === '[') inRange = true;
    else if (c === ']') inRange = false;
    else if (c === '*' && !inRange) break;
  }
  return { star, chunk: p.slice(i, j), rest: p.slice(j) };
}

function getEsc(chunk: string[], at: number): [string, number] {
  let i = at;
  if (i >= chunk.length || chunk[i] === '-' || chunk[i] === ']') throw new BadPattern();
  if (chunk[i] === '\\' && ++i >= chunk.length) throw new BadPattern();
  if (i + 1 >= chunk.length) throw new BadPattern();
  return [chunk[i], i + 1];
}

/** Matches one chunk at the start of `s`: the rest of `s`, or null. Throws BadPattern. */
function matchChunk(chunk: string[], s: string[], from: number): number | null {
  let failed = false;
  let k = from;
  let i = 0;
  while (i < chunk.length) {
    if (!failed && k >= s.length) failed = true;
    const c = chunk[i];
    if (c === '[') {
      const r = failed ? '' : s[k++];
      i++;
      const negated = chunk[i] === '^';
      if (negated) i++;
      let match = false;
      for (let n = 0; ; n++) {
        if (chunk[i] === ']' && n > 0) {
          i++;
          break;
        }
        let lo: string;
        let hi: string;
        [lo, i] = getEsc(chunk, i);
        hi = lo;
        if (chunk[i] === '-') [hi, i] = getEsc(chunk, i + 1);
        if (!failed && (lo.codePointAt(0) ?? 0) <= (r.codePointAt(0) ?? 0) && (r.codePointAt(0) ?? 0) <= (hi.codePointAt(0) ?? 0)) match = true;
      }
      if (match === negated) failed = true;
    } else if (c === '?') {
      if (!failed) {
        if (s[k] === '/') failed = true;
        k++;
      }
      i++;
    } else {
      if (c === '\\' && ++i >= chunk.length) throw new BadPattern();
      if (!failed) {
        if (chunk[i] !== s[k]) failed = true;
        k++;
      }
      i++;
    }
  }
  return failed ? null : k;
}

/** Go path.Match; null for a malformed pattern. */
export function pathMatch(pattern: string, name: string): boolean | null {
  let p = Array.from(pattern);
  const s = Array.from(name);
  let at = 0;
  try {
    outer: while (p.length > 0) {
      const { star, chunk, rest } = scanChunk(p);
      p = rest;
      if (star && chunk.length === 0) return !s.slice(at).includes('/');
      const t = matchChunk(chunk, s, at);
      if (t !== null && (t === s.length || p.length > 0)) {
        at = t;
        continue;
      }
      if (star) {
        for (let i = at; i < s.length && s[i] !== '/'; i++) {
          const u = matchChunk(chunk, s, i + 1);
          if (u !== null) {
            if (p.length === 0 && u < s.length) continue;
            at = u;
            continue outer;
          }
        }
      }
      // the rest of the pattern must still be well formed
      while (p.length > 0) {
        const next = scanChunk(p);
        p = next.rest;
        matchChunk(next.chunk, [], 0);
      }
      return false;
    }
    return at === s.length;
  } catch (err) {
    if (err instanceof BadPattern) return null;
    throw err;
  }
}
