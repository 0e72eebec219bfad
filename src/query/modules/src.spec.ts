import { expectDistributedEqual, kept, linesToEntries, parseError } from './extraction.spec-helper';

const SRCS = ['192.168.1.1', '192.168.1.200', '192.168.2.1', '10.0.0.1', '::1', '2001:db8::5', '::fead:beef', '1234:5678:90ab:cdef:11:2233:4455:6677'];
const DATA = linesToEntries(
  SRCS.map((s) => `from ${s}`),
  SRCS,
);

describe('src module', () => {
  it.each([
    ['src == 192.168.1.1', [0]],
    ['src != 192.168.1.1', [1, 2, 3, 4, 5, 6, 7]],
    ['src ~ 192.168.1.0/24', [0, 1]],
    ['src !~ 192.168.0.0/16', [3, 4, 5, 6, 7]],
    ['src ~ 2001:db8::/32', [5]],
    ['src ~ 10.0.0.1', [3]], // a lone address is a /32
    ['src == 1', [4]], // an integer is the 128-bit address ::1
    ['src == 0xfeadbeef', [6]],
    ['src != 0xfeadbeef', [0, 1, 2, 3, 4, 5, 7]],
    ['src == 1234567890ABCDEF0011223344556677', [7]],
    ['src ~ 192.168.0.0/16 != 192.168.1.200', [0, 2]], // conditions all hold
  ])('%s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it.each([
    ['src', 'ModuleError: src: missing condition (e.g. src == 10.0.0.1, src ~ 10.0.0.0/8)'],
    ['src 10.0.0.1', 'ModuleError: src: expected an operator (== != ~ !~) before "10.0.0.1"'],
    ['src == host.example', 'ModuleError: src: invalid source "host.example" (an IP, an integer, 0x hex or a 32-digit hex hash)'],
    ['src ~ 10.0.0.0/33', 'ModuleError: src: invalid subnet "10.0.0.0/33" for ~ (e.g. 192.168.1.0/24)'],
    ['src ~ nope/8', 'ModuleError: src: invalid subnet "nope/8" for ~ (e.g. 192.168.1.0/24)'],
    ['src > 10.0.0.1', 'ModuleError: src: operator > is not supported (use == != ~ !~)'],
    ['src ==', 'ModuleError: src: missing value after =='],
    ['src -v == 1', 'ModuleError: src: unknown flag -v'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('src ~ 192.168.0.0/16 | count by SRC | table SRC count', DATA);
  });
});
