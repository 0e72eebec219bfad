/**
 * Entries over time above an entry list: a helper search (the person's query without its
 * renderer, `stats count over <width> | chart count`) over the same range, run after the main
 * search has finished, read, and deleted. It stays out of the search history.
 */
import { ChartResult, SearchInfo } from '../../api/types';
import { histogramQuery } from '../query-language';
import { SearchSession } from '../search-session';
import { bucketWidth } from '../time-range';

export interface Bucket {
  start: number;
  count: number;
}

export interface HistogramData {
  buckets: Bucket[];
  widthMs: number;
}

/** Counts per bucket from [start, end), empty buckets included. */
export function fillBuckets(result: ChartResult, start: number, end: number, widthMs: number): Bucket[] {
  const counts = new Map<number, number>();
  for (const v of result.Values) {
    const t = Math.floor(Date.parse(v.TS) / widthMs) * widthMs;
    counts.set(t, (counts.get(t) ?? 0) + (v.Data[0] ?? 0));
  }
  const out: Bucket[] = [];
  for (let t = Math.floor(start / widthMs) * widthMs; t < end; t += widthMs) out.push({ start: t, count: counts.get(t) ?? 0 });
  return out;
}

export async function loadHistogram(info: SearchInfo, renderers: ReadonlySet<string>, isCancelled: () => boolean): Promise<HistogramData | undefined> {
  const start = Date.parse(info.StartRange);
  const end = Date.parse(info.EndRange);
  if (!(end > start)) return undefined;
  const width = bucketWidth(end - start);
  const helper = await SearchSession.launch({
    SearchString: histogramQuery(info.UserQuery, width.text, renderers),
    SearchStart: info.StartRange,
    SearchEnd: info.EndRange,
    NoHistory: true,
  });
  try {
    const done = await helper.ended();
    if (done.phase !== 'finished' || isCancelled()) return undefined;
    const page = await helper.page<ChartResult>();
    return { buckets: fillBuckets(page.Entries, start, end, width.ms), widthMs: width.ms };
  } finally {
    void helper.remove();
  }
}
