import fc from 'fast-check';
import { pathPart } from './path';
import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';

const PATHS = ['/opt/gravwell/etc/gravwell.conf', 'C:\\Users\\gravwell\\foo.txt', '\\\\Network\\foo\\bar', 'C:\\Windows', 'notes.txt', 'D:\\data\\x.txt'];
const D = linesToEntries(PATHS);

describe('path module', () => {
  it("extracts the page's examples: base, dir, ext, volume", () => {
    expect(strings('path base dir ext volume', D, ['base', 'dir', 'ext', 'volume'])).toEqual([
      ['gravwell.conf', '/opt/gravwell/etc', '.conf', undefined],
      ['foo.txt', 'C:\\Users\\gravwell', '.txt', 'C:'],
      ['bar', '\\\\Network\\foo\\', undefined, '\\\\Network\\foo'], // as Go's filepath.Dir: the volume's root keeps its separator
      ['Windows', 'C:\\', undefined, 'C:'],
      ['notes.txt', '.', '.txt', undefined],
      ['x.txt', 'D:\\data', '.txt', 'D:'],
    ]);
  });

  it("filters and renames as the page's examples", () => {
    expect(strings('path base == "foo.txt" as foofiles', D, ['foofiles'])).toEqual([['foo.txt']]);
    expect(kept('path base ext == ".txt"', D)).toEqual([1, 4, 5]);
    // != keeps paths that have no volume (Unix): the part is simply not extracted
    expect(kept('path dir volume != "C:"', D)).toEqual([0, 2, 4, 5]);
    expect(strings('path -e p base as exe', linesToEntries(['{"p":"C:\\\\Windows\\\\cmd.exe"}']), ['exe'])).toEqual([[undefined]]); // no EV p
    expect(strings('json p | path -e p base as exe', linesToEntries(['{"p":"C:\\\\Windows\\\\cmd.exe"}']), ['exe'])).toEqual([['cmd.exe']]);
  });

  it('properties: dir and base rebuild a Unix path with a file name; never throws on garbage', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/), { minLength: 1, maxLength: 5 }), (parts) => {
        const p = `/${parts.join('/')}`;
        const base = pathPart(p, 'base')!;
        const dir = pathPart(p, 'dir')!;
        return base === '..' || base === '.' || parts.includes('.') || parts.includes('..') || `${dir === '/' ? '' : dir}/${base}` === p;
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (s) =>
        ['base', 'dir', 'ext', 'volume'].every((k) => pathPart(s, k as 'base') === undefined || typeof pathPart(s, k as 'base') === 'string'),
      ),
    );
  });

  it.each([
    ['path', 'ModuleError: path: missing extraction (base, dir, ext or volume) argument'],
    ['path name', 'ModuleError: path: unknown extraction "name" (extractions: base, dir, ext, volume)'],
    ['path ext > 3', 'ModuleError: path: operator > is not supported on ext (supported: == != ~ !~)'],
    ['path -e', 'ModuleError: path: missing value for flag -e'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('path ext | count by ext', D);
  });
});
