import fc from 'fast-check';
import { concatValues } from './concat';
import { MAX_PIECES, splitBytes } from './split';
import { expectDistributedEqual, linesToEntries, outEntries, parseError, run, strings } from './extraction.spec-helper';

// the page's example entries
const PAGE = linesToEntries(['a b c', '1,2,3', 'AcustomBcustomC', '"a",b,c,d']);
const datas = (q: string) => outEntries(q, PAGE).map((e) => e.data.toString());

describe('split module', () => {
  it.each([
    ['split', ['a b c', '1', '2', '3', 'AcustomBcustomC', '"a"', 'b', 'c', 'd']],
    ['split -clean', ['a b c', '1', '2', '3', 'AcustomBcustomC', 'a', 'b', 'c', 'd']],
    ['split -d " "', ['a', 'b', 'c', '1,2,3', 'AcustomBcustomC', '"a",b,c,d']],
    ['split -d custom', ['a b c', '1,2,3', 'A', 'B', 'C', '"a",b,c,d']],
  ])("follows the page's examples: %s", (q, out) => {
    expect(datas(q)).toEqual(out);
  });

  it("-clean trims spaces, tabs and both quotes, as the page's foo   ,'bar', baz", () => {
    expect(outEntries('split -clean', linesToEntries(["foo   ,'bar',\t baz"])).map((e) => e.data.toString())).toEqual(['foo', 'bar', 'baz']);
  });

  it('splits an EV into entries that keep everything else (the data is not modified)', () => {
    const d = linesToEntries(['{"useragent":"Mozilla/5.0, (X11), Gecko","host":"h1"}', '{"host":"h2"}']);
    const rows = strings('json useragent host | split -clean useragent', d, ['useragent', 'host']);
    expect(rows).toEqual([
      ['Mozilla/5.0', 'h1'],
      ['(X11)', 'h1'],
      ['Gecko', 'h1'],
      [undefined, 'h2'], // an entry without the EV passes as it is
    ]);
    const e = outEntries('json useragent | split useragent', d);
    expect(new Set(e.map((x) => x.data.toString())).size).toBe(2);
    expect(outEntries('json useragent | split useragent | count', d)[0].evs.get('count')).toBe(4);
  });

  it('makes no entry of empty pieces, and drops an entry made only of delimiters', () => {
    expect(outEntries('split', linesToEntries(['a,,b,', ',,,'])).map((e) => e.data.toString())).toEqual(['a', 'b']);
  });

  it('property: joining the pieces with the delimiter gives back the value when it has no empty piece', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ', '\u0000'), minLength: 1 }), { minLength: 1, maxLength: 8 }), (parts) => {
        const joined = concatValues(parts, ';') as string;
        const { pieces } = splitBytes(Buffer.from(joined), Buffer.from(';'), false);
        return (
          concatValues(
            pieces.map((p) => p.toString()),
            ';',
          ) === joined && pieces.length === parts.length
        );
      }),
    );
  });

  it('bounds the pieces of one entry, with a warning, and keeps the rest in the last piece', () => {
    const big = Buffer.from('x,'.repeat(MAX_PIECES + 500));
    const { pieces, cut } = splitBytes(big, Buffer.from(','), false);
    expect([pieces.length, cut]).toEqual([MAX_PIECES, true]);
    expect(pieces[MAX_PIECES - 1].toString()).toBe('x,'.repeat(501));
    const r = run('split', linesToEntries([big]));
    expect(r.kind === 'entries' && r.EntryCount).toBe(MAX_PIECES);
    expect(r.Warnings).toEqual([
      `split: an entry had more than ${MAX_PIECES} pieces (at most ${MAX_PIECES}, and 64 MiB copied from one entry); the rest of it stays in its last piece`,
    ]);
    // a megabyte of delimiters gives nothing, without holding a piece per delimiter
    expect(splitBytes(Buffer.alloc(1_000_000, 0x2c), Buffer.from(','), false).pieces).toEqual([]);
  });

  it('makes fewer pieces of an entry whose other values are large, so one entry never copies more than 64 MiB', () => {
    const d = linesToEntries([Buffer.concat([Buffer.from('big='), Buffer.alloc(8 * 1024 * 1024, 0x62), Buffer.from(' '), Buffer.from('x,'.repeat(100))])]);
    const r = run('kv big | split', d);
    expect(r.kind === 'entries' && r.EntryCount).toBe(7); // 64 MiB / (8 MiB and the name "big") copied per piece
    expect(r.Warnings?.[0]).toMatch(/^split: an entry had more than 7 pieces/);
  });

  it.each([
    ['split -d ""', 'ModuleError: split: the delimiter (-d) must not be empty'],
    ['split -d', 'ModuleError: split: missing value for flag -d'],
    ['split a b', 'ModuleError: split: unexpected argument "b"'],
    ['split -e a', 'ModuleError: split: unknown flag -e'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('split | count by DATA', PAGE);
    expectDistributedEqual('split -clean', PAGE);
  });
});
