/**
 * Bounds of one eval program. Every operation costs steps (bulk work costs one step per CHUNK
 * characters or elements), so the step budget bounds both the time and the memory one entry can
 * take; the size limits stop a single value or the persistent state from growing without end.
 */

export interface EvalLimits {
  /** steps one entry may take (the `var` initialisers count against the first entry) */
  maxSteps: number;
  /** characters of one string value */
  maxStringLength: number;
  /** elements of one array (nested arrays count their elements) */
  maxArrayLength: number;
  /** keys of one persistent map; later new keys are discarded (as the product does) */
  maxMapKeys: number;
  /** approximate bytes held by all persistent variables and maps of one program */
  maxPersistentBytes: number;
}

export const DEFAULT_EVAL_LIMITS: Readonly<EvalLimits> = Object.freeze({
  maxSteps: 100_000,
  maxStringLength: 1024 * 1024,
  maxArrayLength: 100_000,
  maxMapKeys: 1_000_000,
  maxPersistentBytes: 64 * 1024 * 1024,
});

/** Levels arrays may nest (keeps every walk over an array far from the stack limit). */
export const MAX_ARRAY_DEPTH = 32;

/** Characters or elements one step pays for in bulk operations (concatenation, copies, JSON...). */
export const CHUNK = 64;

/** The limits a program is compiled with (the step budget can be set per search: QueryLimits.evalSteps). */
export function evalLimits(): EvalLimits {
  return { ...DEFAULT_EVAL_LIMITS };
}

/** The string length limit (read where no program is at hand: text of arrays). */
export function maxStringLength(): number {
  return DEFAULT_EVAL_LIMITS.maxStringLength;
}

/** A program broke a limit while it ran: the search ends with this message. */
export class EvalRuntimeError extends Error {
  constructor(message: string) {
    super(`eval: ${message}`);
    this.name = 'EvalRuntimeError';
  }
}
