import { describeModule, errorRange, histogramQuery, macroArity, macroNameAt, moduleNameAt, modules, tokenize } from './query-language';

describe('query-language', () => {
  it('counts the arguments of a macro by its highest %%N%%', () => {
    expect([macroArity('tag=web'), macroArity('json %%1%% %%2%% | grep %%1%%'), macroArity('%%3%% only'), macroArity('%%x%% %%%%')]).toEqual([0, 2, 3, 0]);
  });

  it('gives each token its role, as the service lexes the query', () => {
    const q = 'tag=web,dns kv -e x status | stats count by status over 5m | table "a b" `re|x` // c';
    expect(tokenize(q).map((t) => [t.text, t.role])).toEqual([
      ['tag', 'constraint'],
      ['=', 'op'],
      ['web,dns', 'constraintValue'],
      ['kv', 'module'],
      ['-e', 'flag'],
      ['x', 'ev'],
      ['status', 'ev'],
      ['|', 'pipe'],
      ['stats', 'module'],
      ['count', 'ev'],
      ['by', 'keyword'],
      ['status', 'ev'],
      ['over', 'keyword'],
      ['5m', 'ev'],
      ['|', 'pipe'],
      ['table', 'renderer'],
      ['"a b"', 'string'],
      ['`re|x`', 'regex'],
      ['// c', 'comment'],
    ]);
  });

  it('numbers modules as ParseResponse.ModuleIndex does (constraints belong to no module)', () => {
    const q = 'tag=web grep "a|b" | regx foo | table';
    expect(modules(q).map((m) => [m.index, m.name, q.slice(m.from, m.to), m.isRenderer])).toEqual([
      [0, 'grep', 'grep "a|b"', false],
      [1, 'regx', 'regx foo', false],
      [2, 'table', 'table', true],
    ]);
    expect(q.slice(errorRange(q, 1).from, errorRange(q, 1).to)).toBe('regx foo');
    expect(describeModule(q, 1)).toBe('module 2 (regx)');
    expect(errorRange(q, 7)).toEqual({ from: 0, to: q.length });
  });

  it('knows where a module name may be completed', () => {
    expect(moduleNameAt('tag=web gr', 10)).toEqual({ from: 8, to: 10, prefix: 'gr' });
    expect(moduleNameAt('tag=web grep x | ', 17)).toEqual({ from: 17, to: 17, prefix: '' });
    expect(moduleNameAt('tag=web grep x', 14)).toBeNull();
    expect(moduleNameAt('grep "ta', 8)).toBeNull();
  });

  it('knows where a macro call may be completed: after a $, outside strings, regexes and comments', () => {
    expect(macroNameAt('$', 1)).toEqual({ from: 0, to: 1, prefix: '$' });
    expect(macroNameAt('tag=web $WE', 11)).toEqual({ from: 8, to: 11, prefix: '$WE' });
    expect(macroNameAt('$SRC json x | $CN(a) | table', 17)).toEqual({ from: 14, to: 17, prefix: '$CN' });
    expect(macroNameAt('$WEB404 | table', 3)).toEqual({ from: 0, to: 7, prefix: '$WE' });
    expect(macroNameAt('tag=web WE', 10)).toBeNull();
    expect(macroNameAt('grep "a $B', 10)).toBeNull();
    expect(macroNameAt('regex `x$`', 9)).toBeNull();
    expect(macroNameAt('grep x // $A', 12)).toBeNull();
  });

  it('builds the histogram query from the query without its renderer', () => {
    expect(histogramQuery('tag=web grep x | text', '1m')).toBe('tag=web grep x\n| stats count over 1m | chart count');
    expect(histogramQuery('tag=web grep x // note', '5m')).toBe('tag=web grep x // note\n| stats count over 5m | chart count');
    expect(histogramQuery('tag=web', '1h')).toBe('tag=web\nstats count over 1h | chart count');
    expect(histogramQuery('tag=web raw', '1h')).toBe('tag=web\nstats count over 1h | chart count');
  });
});
