import * as v8 from 'node:v8';

/**
 * Regular expressions typed by users must not run in exponential time: `(a+)+$` over 30 `a`s
 * and a `!` held the event loop for minutes. Two parts:
 *
 * - V8's linear-time engine takes over a match after too many backtracks
 *   (`--enable-experimental-regexp-engine-on-excessive-backtracks`, default 50,000), so a
 *   catastrophic pattern ends in about a millisecond. The flag is process-wide: the HTTP event
 *   loop and every worker thread. Patterns that never backtrack that much run as before.
 * - The linear engine cannot run backreferences or lookarounds, nor any pattern with the `i` or
 *   `u` flag. User patterns are read as RE2 reads them (re2.ts): RE2 has neither construct, and
 *   the translation spells `(?i)` out instead of using a flag.
 */
let enabled = false;

export function enableLinearRegexpFallback(): void {
  if (enabled) return;
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  enabled = true;
}
