import { expectDistributedEqual, linesToEntries, parseError, strings } from './extraction.spec-helper';
import { formatIp, maskBytes, parseIp } from './ip-addr';

const DATA = linesToEntries(['ip=34.22.1.77 peer=10.1.2.3', 'ip=2001:db8:abcd:12::1 peer=::ffff:192.168.9.9', 'ip=not-an-ip', 'peer=172.16.5.4']);

describe('ip-addr', () => {
  it('parses and formats IPv4, IPv6 (compressed, embedded IPv4, zones) and masks', () => {
    expect(formatIp(parseIp('10.1.2.3')!)).toBe('10.1.2.3');
    expect(formatIp(parseIp('2001:0db8:0:0:1:0:0:1')!)).toBe('2001:db8::1:0:0:1');
    expect(formatIp(parseIp('fe80::1%eth0')!)).toBe('fe80::1');
    expect(parseIp('::ffff:1.2.3.4')).toEqual({ version: 4, bytes: parseIp('1.2.3.4')!.bytes });
    expect(formatIp(parseIp('::1.2.3.4')!)).toBe('::102:304');
    expect(formatIp({ version: 6, bytes: maskBytes(parseIp('2001:db8:abcd:12:ffff::1')!.bytes, 56) })).toBe('2001:db8:abcd::');
    expect(parseIp('1.2.3')).toBeUndefined();
    expect(parseIp('')).toBeUndefined();
  });
});

describe('subnet module', () => {
  it('writes the IPv4 subnet into "subnet" or the name after as; skips other values', () => {
    expect(strings('kv ip peer | subnet ip /16', DATA, ['subnet'])).toEqual([['34.22.0.0'], [undefined], [undefined], [undefined]]);
    expect(strings('kv ip peer | subnet ip /24 as a peer /8 as b', DATA, ['a', 'b'])).toEqual([
      ['34.22.1.0', '10.0.0.0'],
      [undefined, '192.0.0.0'],
      [undefined, undefined],
      [undefined, '172.0.0.0'],
    ]);
    expect(strings('kv ip | subnet ip /0 as z ip /32 as all', DATA, ['z', 'all'])[0]).toEqual(['0.0.0.0', '34.22.1.77']);
  });

  it('handles IPv6 with -6', () => {
    expect(strings('kv ip peer | subnet -6 ip /48 as net peer /64 as p', DATA, ['net', 'p'])).toEqual([
      [undefined, undefined],
      ['2001:db8:abcd::', undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it.each([
    ['subnet', 'ModuleError: subnet: missing enumerated value and prefix length (e.g. subnet ip /16)'],
    ['subnet ip', 'ModuleError: subnet: missing prefix length (/N) after ip'],
    ['subnet ip 16', 'ModuleError: subnet: invalid prefix length "16" for ip (expected /0 to /32)'],
    ['subnet ip /33', 'ModuleError: subnet: invalid prefix length "/33" for ip (expected /0 to /32)'],
    ['subnet -6 ip /129', 'ModuleError: subnet: invalid prefix length "/129" for ip (expected /0 to /128)'],
    ['subnet -4 -6 ip /8', 'ModuleError: subnet: -4 and -6 cannot be used together'],
    ['subnet -e x ip /8', 'ModuleError: subnet: unknown flag -e'],
    ['subnet ip=="1.2.3.4" /8', 'ModuleError: subnet: filters are not supported (unexpected "==")'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv peer | subnet peer /8 | count by subnet | table subnet count', DATA);
  });
});
