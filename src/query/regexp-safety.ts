import * as v8 from 'node:v8';

/**
 * Regular expressions typed by users must not run in exponential time: `(a+)+$` over 30 `a`s
 * and a `!` held the event loop for minutes. Two parts:
 *
 * - V8's linear-time engine takes over a match after too many backtracks
 *   (`--enable-experimental-regexp-engine-on-excessive-backtracks`, default 50,000), so a
 *   catastrophic pattern ends in about a millisecond. The flag is process-wide: the HTTP event
 *   loop and every worker thread. Patterns that never backtrack that much run as before.
 * - The linear engine cannot run backreferences or lookarounds, so user patterns may not hold
 *   them. The product's engine is Go's RE2, which has neither: refusing them keeps its syntax.
 */
let enabled = false;

export function enableLinearRegexpFallback(): void {
  if (enabled) return;
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  enabled = true;
}

/** RE2's largest repetition count, `a{1000}`. */
const MAX_REPEAT = 1000;

/**
 * What RE2 refuses and V8 could only backtrack on (backreferences, lookarounds), or a
 * repetition count above RE2's 1000: a description of the first one, or undefined.
 */
export function nonLinearConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{' && !inClass) {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i));
      if (m && Math.max(Number(m[1]), Number(m[2] || 0)) > MAX_REPEAT) return `repetition count above ${MAX_REPEAT} (${m[0]})`;
    }
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `backreference \\${next}`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'backreference \\k<...>';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === ']') i++; // a leading ] is literal
    } else if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!')) return `lookahead (?${rest[0]}`;
      if (rest === '<=' || rest === '<!') return `lookbehind (?${rest}`;
    }
  }
  return undefined;
}
