/**
 * Time windows of the condensing modules whose results go to a chart. The product runs `stats`,
 * `count` and the math modules in "temporal mode" then (gravwell/wiki search/stats/stats.md, "Time
 * Window Specification"): one set of results per time window, `over` setting the window. Here the
 * default window is sized to the search range (as the chart's buckets are: fewer than 100 of
 * them), and an `over` so fine that more than MAX_WINDOWS windows would cover the range is
 * widened to a multiple of itself, with a warning: what a search holds stays bounded whatever the
 * range.
 */
import { rangeBucketWidth } from './renderers/chart-cells';
import { RuntimeContext } from './types';
import { addWarning } from './warnings';

/** The search range (epoch µs) and the window sized to it. */
export interface TimeWindows {
  start: number;
  end: number;
  width: number;
}

/** Most windows one module may cut the search range into. */
export const MAX_WINDOWS = 10_000;

export function rangeWindows(startUs: number, endUs: number): TimeWindows {
  return { start: startUs, end: endUs, width: rangeBucketWidth(endUs - startUs) };
}

/** The window a module uses over these windows' range: `over` (widened past MAX_WINDOWS), else the range's. */
export function windowWidth(over: number | undefined, w: TimeWindows): { width: number; widened: boolean } {
  if (over === undefined) return { width: w.width, widened: false };
  const span = w.end - w.start;
  if (span / over <= MAX_WINDOWS) return { width: over, widened: false };
  return { width: Math.ceil(span / MAX_WINDOWS / over) * over, widened: true };
}

function durationText(us: number): string {
  return us % 1_000_000 === 0 ? `${us / 1_000_000}s` : `${us / 1000}ms`;
}

/**
 * The time bucket width of a stats or math module: with windows (its results go to a chart), the
 * window; else `over` (undefined: condensed, one result per group).
 */
export function moduleWindow(module: string, over: { us: number; text: string } | undefined, rt: RuntimeContext): number | undefined {
  const w = rt.windows;
  if (!w) return over?.us;
  const { width, widened } = windowWidth(over?.us, w);
  if (widened) addWarning(rt, `${module}: "over ${over!.text}" makes more than ${MAX_WINDOWS} time windows over the search range; windows of ${durationText(width)} are used`);
  return width;
}
