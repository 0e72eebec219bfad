import { expectDistributedEqual, kept, linesToEntries, parseError } from './extraction.spec-helper';

const DATA = linesToEntries(['a=1 b=2', 'a=1', 'b=2', 'c=3']);

describe('require module', () => {
  it.each([
    ['kv a b | require a', [0, 1]],
    ['kv a b | require a b', [0, 1, 2]], // any of them
    ['kv a b | require -s a b', [0]], // all of them
    ['kv a b | require -v a', [2, 3]],
    ['kv a b | require -v a b', [3]], // none of them
    ['kv a b | require -v -s a b', [3]], // -v implies -s
    ['require SRC', [0, 1, 2, 3]], // universal values are always there
  ])('%s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it.each([
    ['require', 'ModuleError: require: missing enumerated value name'],
    ['require -x a', 'ModuleError: require: unknown flag -x'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv a b | require -s a b | count', DATA);
  });
});
