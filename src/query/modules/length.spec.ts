import { expectDistributedEqual, linesToEntries, parseError, values } from './extraction.spec-helper';

const DATA = linesToEntries(['héllo p=abc', Buffer.from([0xff, 0x00, 0x01]), '']);

describe('length module', () => {
  it('measures the data in bytes into "length", or into -t target', () => {
    expect(values('length', DATA, ['length'])).toEqual([[12], [3], [0]]);
    expect(values('length -t foo', DATA, ['foo', 'length'])).toEqual([
      [12, undefined],
      [3, undefined],
      [0, undefined],
    ]);
  });

  it('measures an enumerated value; entries without it get none', () => {
    expect(values('kv p | length p', DATA, ['length'])).toEqual([[3], [undefined], [undefined]]);
    expect(values('kv p | length -t n p', DATA, ['n'])).toEqual([[3], [undefined], [undefined]]);
    expect(values('length -t n SRC', DATA, ['n'])[0]).toEqual([8]);
  });

  it.each([
    ['length a b', 'ModuleError: length: unexpected argument "b"'],
    ['length -t', 'ModuleError: length: missing value for flag -t'],
    ['length -t ""', 'ModuleError: length: target must not be empty'],
    ['length -e x', 'ModuleError: length: unknown flag -e'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('length | sum length', DATA);
  });
});
