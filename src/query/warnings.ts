/**
 * Warnings of one search: what the pipeline computed with less than it was asked for (a stats
 * column no entry had a value for...). The collapser hands them out with the result
 * (RenderResult.Warnings) and the service shows them as the search's messages.
 */
import { RuntimeContext } from './types';

/** At most this many distinct warnings are kept per search. */
const MAX_WARNINGS = 20;

export function addWarning(rt: RuntimeContext, message: string): void {
  const w = (rt.warnings ??= []);
  if (w.length < MAX_WARNINGS && !w.includes(message)) w.push(message);
}
