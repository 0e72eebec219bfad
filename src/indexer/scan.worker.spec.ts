import { buildScanSql } from './scan.worker';

describe('buildScanSql (block selection)', () => {
  it('selects blocks by day (partition), time overlap and tag, newest block first for ordered queries', () => {
    expect(buildScanSql(true)).toBe(
      'SELECT tag, (extract(epoch FROM lo) * 1000000)::float8 AS lo, (extract(epoch FROM hi) * 1000000)::float8 AS hi, n, body FROM block WHERE lo >= $1 AND lo < $2 AND hi >= $3 AND tag = ANY($4::smallint[]) ORDER BY hi DESC',
    );
  });

  it('skips the sort for order-free queries', () => {
    expect(buildScanSql(false)).not.toContain('ORDER BY');
  });

  it('reads only its shards when an order-free search is split', () => {
    expect(buildScanSql(false, { part: 2, of: 3 })).toContain('AND shard % 3 = 2');
  });
});
