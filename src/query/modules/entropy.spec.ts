import fc from 'fast-check';
import { byteEntropy } from '../aggregate';
import { expectDistributedEqual, linesToEntries, outEntries, parseError, run } from './extraction.spec-helper';

/** Independent computation: entropy of the concatenated bytes, by definition. */
function oracle(values: Buffer[]): number | undefined {
  const all = Buffer.concat(values);
  if (all.length === 0) return undefined;
  const freq = new Map<number, number>();
  for (const b of all) freq.set(b, (freq.get(b) ?? 0) + 1);
  let h = 0;
  for (const c of freq.values()) h -= (c / all.length) * Math.log2(c / all.length);
  return h / 8;
}

const byName = (q: string, d: ReturnType<typeof linesToEntries>, key: string) => Object.fromEntries(outEntries(q, d).map((e) => [String(e.evs.get(key)), e.evs.get('entropy')]));

describe('entropy module', () => {
  it('gives the entropy of all the data by default, between 0 and 1', () => {
    expect(outEntries('entropy', linesToEntries(['aaaa', 'aaaa']))[0].evs.get('entropy')).toBe(0);
    expect(outEntries('entropy', linesToEntries([Buffer.from(Array.from({ length: 256 }, (_, i) => i))]))[0].evs.get('entropy')).toBe(1);
    expect(outEntries('entropy', linesToEntries(['ab']))[0].evs.get('entropy')).toBe(1 / 8);
  });

  it("groups by EVs as the page's `entropy foo by bar baz`, matching an independent computation", () => {
    const lines = ['foo=aaaa bar=x baz=1', 'foo=abcd bar=x baz=1', 'foo=zzzz bar=y baz=1', 'foo=q bar=x baz=2', 'bar=x baz=1'];
    const d = linesToEntries(lines);
    const got = Object.fromEntries(
      outEntries('kv foo bar baz | entropy foo by bar baz', d).map((e) => [`${String(e.evs.get('bar'))}${String(e.evs.get('baz'))}`, e.evs.get('entropy')]),
    );
    expect(got).toEqual({ x1: oracle([Buffer.from('aaaa'), Buffer.from('abcd')]), y1: 0, x2: 0 });
  });

  it('oracle: any values in any groups give the entropy of their bytes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.uint8Array({ maxLength: 30 })), { minLength: 1, maxLength: 30 }), (rows) => {
        const d = linesToEntries(rows.map(([g, b]) => Buffer.concat([Buffer.from(`g=${g} v=`), Buffer.from(b).map((x) => (x === 0x20 ? 0x21 : x))])));
        const got = byName('kv g | entropy by g', d, 'g');
        for (const g of ['a', 'b', 'c']) {
          const mine = rows.filter((r) => r[0] === g).map((r) => d[rows.indexOf(r)].data);
          const want = mine.length ? oracle(mine) : undefined;
          if (want === undefined ? g in got : Math.abs((got[g] as number) - want) > 1e-12) return false;
        }
        return true;
      }),
      { numRuns: 50 },
    );
  });

  it('runs over time windows (over 10m) and draws a chart over time', () => {
    const d = linesToEntries(['aaaa', 'abab']);
    const over = outEntries('entropy over 10m', d);
    expect(over.length).toBeGreaterThanOrEqual(1);
    expect(over.every((e) => typeof e.evs.get('entropy') === 'number')).toBe(true);
    const c = run('entropy | chart entropy', d);
    expect(c.kind).toBe('chart');
    if (c.kind === 'chart') {
      expect(c.Entries.Names).toEqual(['entropy']);
      expect(c.Entries.Values.some((v) => v.Data[0] !== null)).toBe(true);
    }
  });

  it('is not a stats operator (as in the product) and refuses what the math modules refuse', () => {
    expect(parseError('stats entropy(x)')).toBe('ModuleError: stats: "entropy" is not a stats operator');
    expect(parseError('entropy by')).toBe('ModuleError: entropy: missing EV name after "by"');
    expect(parseError('entropy over 0s')).toBe('ModuleError: entropy: invalid duration "0s"');
    expect(parseError('entropy TIMESTAMP')).toMatch(/^ModuleError: entropy: entropy\(TIMESTAMP\) is not supported/);
  });

  it('is bounded: a huge value costs 256 counts, and byteEntropy stays within [0, 1]', () => {
    expect(outEntries('entropy', linesToEntries([Buffer.alloc(5_000_000, 7)]))[0].evs.get('entropy')).toBe(0);
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 256, maxLength: 256 }), (h) => {
        const e = byteEntropy(h);
        return e === undefined ? h.every((x) => x === 0) : e >= 0 && e <= 1 + 1e-12;
      }),
    );
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv g | entropy by g', linesToEntries(['g=1 xx', 'g=2 abc', 'g=1 zz9', 'g=3']));
  });
});
