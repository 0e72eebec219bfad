import { expectDistributedEqual, linesToEntries, parseError, strings } from './extraction.spec-helper';

const DATA = linesToEntries(['a=1 b=2', 'a=3', 'c=4'], ['10.0.0.1', '10.0.0.2', '10.0.0.3']);

describe('alias module', () => {
  it('copies values in pairs; a missing source copies nothing; universal values can be copied', () => {
    expect(strings('kv a b | alias a x b y SRC host', DATA, ['a', 'x', 'y', 'host'])).toEqual([
      ['1', '1', '2', '10.0.0.1'],
      ['3', '3', undefined, '10.0.0.2'],
      [undefined, undefined, undefined, '10.0.0.3'],
    ]);
  });

  it('reads every source before writing (a b b a swaps), and a later change of the copy leaves the original', () => {
    expect(strings('kv a b | alias a b b a', DATA, ['a', 'b'])[0]).toEqual(['2', '1']);
    expect(strings('kv a | alias a up | upper up', linesToEntries(['a=x']), ['a', 'up'])).toEqual([['x', 'X']]);
  });

  it.each([
    ['alias', 'ModuleError: alias: missing "source destination" pair'],
    ['alias a b c', 'ModuleError: alias: "c" has no destination (arguments come in pairs)'],
    ['alias -v a b', 'ModuleError: alias: unknown flag -v'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv a | alias a z | count by z | table z count', DATA);
  });
});
