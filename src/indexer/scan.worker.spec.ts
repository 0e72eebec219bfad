import { buildScanSql } from './scan.worker';

describe('buildScanSql (pushdown)', () => {
  it('filters tag and time always', () => {
    const { sql, greps } = buildScanSql({ grep: [], ordered: true });
    expect(sql).toBe('SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, tag, src, data, evs FROM entry WHERE ts >= $1 AND ts < $2 AND tag = ANY($3::smallint[]) ORDER BY ts DESC');
    expect(greps).toEqual([]);
  });

  it('pushes substrings as bytea positions; wildcard pieces each; exact inversions only', () => {
    const { sql, greps } = buildScanSql({
      grep: [
        { pattern: 'error', invert: false },
        { pattern: 'GET *health*', invert: false },
        { pattern: 'debug', invert: true },
        { pattern: 'a*b', invert: true },
      ],
      ordered: true,
    });
    expect(sql).toContain('position($4::bytea in data) > 0 AND position($5::bytea in data) > 0 AND position($6::bytea in data) > 0 AND position($7::bytea in data) = 0 ORDER BY');
    expect(greps.map(String)).toEqual(['error', 'GET ', 'health', 'debug']);
  });

  it('skips the sort for order-free queries', () => {
    expect(buildScanSql({ grep: [], ordered: false }).sql).not.toContain('ORDER BY');
  });
});
