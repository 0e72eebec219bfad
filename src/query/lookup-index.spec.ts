import { TableIndex } from './lookup-index';
import { parseCsvTable, tableFromRows } from './lookup-table';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('TableIndex', () => {
  it('finds rows by one or several columns, first row wins, exact bytes only', () => {
    const t = tableFromRows(
      ['a', 'b', 'v'],
      [
        ['ab', 'c', 'first'],
        ['a', 'bc', 'second'],
        ['ab', 'c', 'dup'],
        ['', '', 'empty'],
        ['é', 'x', 'utf8'],
      ],
    );
    const both = new TableIndex(t, [0, 1]);
    expect(both.find([b('ab'), b('c')])).toBe(0);
    expect(both.find([b('a'), b('bc')])).toBe(1);
    expect(both.find([b(''), b('')])).toBe(3);
    expect(both.find([b('é'), b('x')])).toBe(4);
    expect(both.find([b('abc'), b('')])).toBe(-1);
    const one = new TableIndex(t, [0]);
    expect(one.find([b('ab')])).toBe(0);
    expect(one.find([b('AB')])).toBe(-1);
    expect(one.find([b('a')])).toBe(1);
  });

  it('stays exact under heavy probing (every key of a full table, and misses)', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`k${i}`, String(i)]);
    const idx = new TableIndex(tableFromRows(['k', 'v'], rows), [0]);
    for (let i = 0; i < 5000; i++) expect(idx.find([b(`k${i}`)])).toBe(i);
    for (let i = 5000; i < 6000; i++) expect(idx.find([b(`k${i}`)])).toBe(-1);
  });

  it('indexes a table of 200,000 rows parsed from CSV (the 50 MB case runs in test/e2e/lookup.e2e-spec.ts)', () => {
    const n = 200_000;
    const lines = ['host,owner'];
    for (let i = 0; i < n; i++) lines.push(`host-${String(i).padStart(7, '0')}.example.org,owner${i % 97}`);
    const table = parseCsvTable(Buffer.from(`${lines.join('\n')}\n`));
    const idx = new TableIndex(table, [0]);
    expect(table.rows).toBe(n);
    expect(idx.find([b('host-0123456.example.org')])).toBe(123456);
    expect(idx.find([b('host-0200000.example.org')])).toBe(-1);
  });
});
