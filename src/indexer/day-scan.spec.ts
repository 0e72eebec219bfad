import { buildScanSql, estimateBytes, peakOverlap, windowStart } from './day-scan';

describe('buildScanSql (block selection, a COPY statement: literals, no parameters)', () => {
  const bounds = { dayStart: Date.UTC(2024, 0, 1) * 1000, to: Date.UTC(2024, 0, 1, 12) * 1000 + 5, from: Date.UTC(2024, 0, 1, 1) * 1000, tagIds: [3, 7] };

  it('selects blocks by day (partition), time overlap and tag, newest block first for ordered queries', () => {
    expect(buildScanSql(bounds, true)).toBe(
      'SELECT tag, (extract(epoch FROM lo) * 1000000)::float8 AS lo, (extract(epoch FROM hi) * 1000000)::float8 AS hi, n, body FROM block ' +
        "WHERE lo >= '2024-01-01 00:00:00.000000+00'::timestamptz AND lo < '2024-01-01 12:00:00.000005+00'::timestamptz " +
        "AND hi >= '2024-01-01 01:00:00.000000+00'::timestamptz AND tag = ANY('{3,7}'::smallint[]) ORDER BY hi DESC",
    );
  });

  it('skips the sort for order-free queries', () => {
    expect(buildScanSql(bounds, false)).not.toContain('ORDER BY');
  });

  it('reads only its shards when an order-free search is split', () => {
    expect(buildScanSql(bounds, false, { part: 2, of: 3 })).toContain('AND shard % 3 = 2');
  });
});

describe('newest-first planning from block rows', () => {
  const k = (lo: number, hi: number, raw: number) => ({ id: `${lo}-${hi}`, lo, hi, raw });

  it('peakOverlap: the most bytes a merge holds at once', () => {
    // In order, no overlap: one block at a time.
    expect(peakOverlap([k(0, 9, 5), k(10, 19, 5), k(20, 29, 5)])).toBe(5);
    // Every block spans the day: all at once.
    expect(peakOverlap([k(0, 100, 5), k(1, 99, 5), k(2, 98, 5)])).toBe(15);
    // Touching at one instant overlaps.
    expect(peakOverlap([k(0, 10, 5), k(10, 20, 7)])).toBe(12);
  });

  it('estimateBytes spreads each block evenly over its range', () => {
    expect(estimateBytes([k(0, 99, 100)], 0, 50)).toBeCloseTo(50);
    expect(estimateBytes([k(0, 99, 100), k(50, 149, 100)], 50, 100)).toBeCloseTo(100);
    expect(estimateBytes([k(0, 99, 100)], 100, 200)).toBe(0);
  });

  it('windowStart: the earliest start whose window fits; one microsecond at least', () => {
    const blocks = [k(0, 999, 1000), k(0, 999, 1000)];
    expect(windowStart(blocks, 0, 1000, 5000)).toBe(0);
    const a = windowStart(blocks, 0, 1000, 500);
    expect(estimateBytes(blocks, a, 1000)).toBeLessThanOrEqual(500);
    expect(estimateBytes(blocks, a - 1, 1000)).toBeGreaterThan(500);
    expect(windowStart(blocks, 0, 1000, 0.1)).toBe(999);
  });
});
