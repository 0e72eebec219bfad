import { expectDistributedEqual, linesToEntries, outEntries, parseError, strings } from './extraction.spec-helper';

const DATA = linesToEntries(['Region=Ab straße', Buffer.from([0x61, 0xff, 0x42])]);

describe('upper and lower modules', () => {
  it('change the case of the data (UTF-8 as text, other bytes only ASCII letters)', () => {
    expect(outEntries('upper', DATA).map((e) => e.data)).toEqual([Buffer.from('REGION=AB STRASSE'), Buffer.from([0x41, 0xff, 0x42])]);
    expect(outEntries('lower', DATA).map((e) => e.data)).toEqual([Buffer.from('region=ab straße'), Buffer.from([0x61, 0xff, 0x62])]);
  });

  it('change only the named enumerated values when given (DATA among them changes the data)', () => {
    const d = linesToEntries(['a=Mixed b=Case']);
    expect(strings('kv a b | upper a', d, ['a', 'b'])).toEqual([['MIXED', 'Case']]);
    expect(strings('kv a b | lower a b missing', d, ['a', 'b', 'missing'])).toEqual([['mixed', 'case', undefined]]);
    const both = outEntries('kv a | lower a DATA', d)[0];
    expect([both.data.toString(), both.evs.get('a')]).toEqual(['a=mixed b=case', 'mixed']);
    expect(outEntries('kv a | upper a', d)[0].data.toString()).toBe('a=Mixed b=Case');
  });

  it.each([
    ['upper -e a', 'ModuleError: upper: unknown flag -e'],
    ['lower -v', 'ModuleError: lower: unknown flag -v'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv Region | upper Region | count by Region | table Region count', DATA);
    expectDistributedEqual('lower', DATA);
  });
});
