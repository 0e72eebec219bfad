import { Entry } from '../query';
import { StreamMerge } from './stream-merge';

const e = (ts: number): Entry => ({ ts, tag: 0, src: '', data: Buffer.from(String(ts)), evs: new Map() });
const ts = (xs: Entry[]) => xs.map((x) => x.ts);

describe('StreamMerge', () => {
  it('releases nothing until every active source has reported, then newest first', () => {
    const m = new StreamMerge<Entry>(2);
    expect(ts(m.add(0, [e(90), e(80)], 80))).toEqual([]);
    expect(ts(m.add(1, [e(85), e(70)], 70))).toEqual([90, 85, 80]);
    expect(ts(m.add(1, [], 10))).toEqual([]);
    expect(ts(m.add(0, [e(60)], 60))).toEqual([70, 60]);
    expect(ts(m.finish(0))).toEqual([]);
    expect(ts(m.add(1, [e(5)], 5))).toEqual([5]);
    expect(ts(m.finish(1))).toEqual([]);
  });

  it('a finished source no longer holds the others back', () => {
    const m = new StreamMerge<Entry>(2);
    m.add(0, [e(50), e(40)], 40);
    expect(ts(m.finish(1))).toEqual([50, 40]);
  });

  it('merges random newest-first streams into one newest-first stream', () => {
    for (let round = 0; round < 50; round++) {
      const n = 1 + (round % 4);
      const streams = Array.from({ length: n }, () => Array.from({ length: 20 }, () => Math.floor(Math.random() * 1000)).sort((a, b) => b - a));
      const m = new StreamMerge<Entry>(n);
      const out: number[] = [];
      const pos = streams.map(() => 0);
      while (pos.some((p, i) => p < streams[i].length)) {
        const i = Math.floor(Math.random() * n);
        if (pos[i] >= streams[i].length) continue;
        const k = 1 + Math.floor(Math.random() * 5);
        const chunk = streams[i].slice(pos[i], pos[i] + k);
        pos[i] += chunk.length;
        out.push(...ts(m.add(i, chunk.map(e), chunk[chunk.length - 1])));
        if (pos[i] >= streams[i].length) out.push(...ts(m.finish(i)));
      }
      expect(out).toEqual(streams.flat().sort((a, b) => b - a));
    }
  });
});
