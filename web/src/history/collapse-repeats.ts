import { SearchLog } from '../api/types';

/** The same query run several times in a row is one line (the latest run) with how many times. */
export function collapseRepeats(items: SearchLog[]): Array<{ item: SearchLog; times: number }> {
  const out: Array<{ item: SearchLog; times: number }> = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.item.UserQuery === item.UserQuery) last.times++;
    else out.push({ item, times: 1 });
  }
  return out;
}
