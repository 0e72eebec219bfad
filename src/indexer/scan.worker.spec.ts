import { blockShare, MIN_SPLIT_BLOCKS } from './scan.protocol';
import { buildScanSql } from './scan.worker';

describe('buildScanSql (pushdown)', () => {
  it('filters tag and time always', () => {
    const { sql, greps } = buildScanSql({ grep: [], ordered: true });
    expect(sql).toBe(
      'SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, tag, src, data, evs FROM entry WHERE ts >= $1 AND ts < $2 AND tag = ANY($3::smallint[]) ORDER BY ts DESC',
    );
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

describe('blockShare (order-free parallel scans)', () => {
  const covered = (of: number, n: number) => {
    const blocks = { p: n };
    return Array.from({ length: of }, (_, part) => blockShare({ part, of, blocks }, 'p'));
  };

  it('splits a large partition into adjacent ranges; the last one is open-ended', () => {
    const shares = covered(3, 3000) as Array<{ lo: number; hi?: number }>;
    expect(shares).toEqual([
      { lo: 0, hi: 1000 },
      { lo: 1000, hi: 2000 },
      { lo: 2000, hi: undefined },
    ]);
    for (const n of [MIN_SPLIT_BLOCKS, 1025, 4099, 123457]) {
      for (const parts of [2, 3, 4, 7]) {
        const s = covered(parts, n) as Array<{ lo: number; hi?: number }>;
        expect(s[0].lo).toBe(0);
        for (let k = 1; k < parts; k++) expect(s[k].lo).toBe(s[k - 1].hi);
        expect(s[parts - 1].hi).toBeUndefined();
      }
    }
  });

  it('leaves small or unknown partitions to part 0, whole', () => {
    expect(covered(3, MIN_SPLIT_BLOCKS - 1)).toEqual([undefined, null, null]);
    expect(blockShare({ part: 0, of: 2, blocks: {} }, 'new')).toBeUndefined();
    expect(blockShare({ part: 1, of: 2, blocks: {} }, 'new')).toBeNull();
    expect(blockShare(undefined, 'p')).toBeUndefined();
  });

  it('adds the block range as TID conditions', () => {
    expect(buildScanSql({ grep: [], ordered: false }, { lo: 10, hi: 20 }).sql).toContain(`ctid >= '(10,0)'::tid AND ctid < '(20,0)'::tid`);
    expect(buildScanSql({ grep: [], ordered: false }, { lo: 20 }).sql).not.toContain('ctid <');
  });
});
