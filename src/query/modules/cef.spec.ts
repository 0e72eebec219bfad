import { parseCef } from './cef';
import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';

const LINES = [
  // the product page's record, and its "technically invalid" one with a Version key
  'CEF:0|Citrix|NetScaler|NS11.0|APPFW|APPFW_STARTURL|6|src=192.168.1.1 method=GET request=http://totallynotmalware.safedomain.cn/stuff.html msg=Banned domain request attempt cs1=FIREWALL cs2=APP cs3=deadbeef1009 cs4=WARN cs5=2018 act=blocked',
  'CEF:0|Citrix|NetScaler|NS11.0|APPFW|APPFW_STARTURL|6|src=192.168.1.1 Version=11.0 method=GET request=http://totallynotmalware.safedomain.cn/stuff.html msg=Banned domain request attempt cs1=FIREWALL cs2=APP cs3=deadbeef1009 cs4=WARN cs5=2018 act=blocked',
  // behind a syslog header (the CEF specification's example)
  'Sep 19 08:26:10 host CEF:0|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.1.2.2 spt=1232',
  // escapes in the header and the extension, a URL with = in its query string
  'CEF:1|Vendor\\|X|Prod\\\\uct|1|sig|Name with = sign|3|msg=a \\= b\\nline2 request=http://x/y?a=1&b=2 suser=bob',
  'no cef here',
];
const DATA = linesToEntries(LINES);

describe('parseCef', () => {
  it('reads the header and the extension of the page example', () => {
    const r = parseCef(LINES[0])!;
    expect([...r.header]).toEqual([
      ['Version', '0'],
      ['DeviceVendor', 'Citrix'],
      ['DeviceProduct', 'NetScaler'],
      ['DeviceVersion', 'NS11.0'],
      ['Signature', 'APPFW'],
      ['Name', 'APPFW_STARTURL'],
      ['Severity', '6'],
    ]);
    expect(Object.fromEntries(r.ext)).toEqual({
      src: '192.168.1.1',
      method: 'GET',
      request: 'http://totallynotmalware.safedomain.cn/stuff.html',
      msg: 'Banned domain request attempt',
      cs1: 'FIREWALL',
      cs2: 'APP',
      cs3: 'deadbeef1009',
      cs4: 'WARN',
      cs5: '2018',
      act: 'blocked',
    });
  });

  it('unescapes \\| \\\\ in the header and \\= \\n in values; = inside a value stays', () => {
    const r = parseCef(LINES[3])!;
    expect([r.header.get('DeviceVendor'), r.header.get('DeviceProduct'), r.header.get('Name')]).toEqual(['Vendor|X', 'Prod\\uct', 'Name with = sign']);
    expect(Object.fromEntries(r.ext)).toEqual({ msg: 'a = b\nline2', request: 'http://x/y?a=1&b=2', suser: 'bob' });
  });

  it('keeps a short header, and has nothing without CEF:', () => {
    expect([...parseCef('CEF:0|V|P')!.header]).toEqual([
      ['Version', '0'],
      ['DeviceVendor', 'V'],
      ['DeviceProduct', 'P'],
    ]);
    expect(parseCef('no cef')).toBeUndefined();
  });

  it('is linear on hostile input', () => {
    const t = Date.now();
    parseCef(`CEF:0|a|b|c|d|e|f|${'k=v '.repeat(100_000)}${'x=y=z'.repeat(100_000)}${'\\|'.repeat(100_000)}`);
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('cef module', () => {
  it('extracts header fields and keys; Ext.Version is the key, Version the header', () => {
    expect(
      strings('cef DeviceVendor DeviceProduct Severity msg Version as hdrversion Ext.Version', DATA, ['DeviceVendor', 'DeviceProduct', 'Severity', 'msg', 'hdrversion', 'Version']),
    ).toEqual([
      ['Citrix', 'NetScaler', '6', 'Banned domain request attempt', '0', undefined],
      ['Citrix', 'NetScaler', '6', 'Banned domain request attempt', '0', '11.0'],
      ['Security', 'threatmanager', '10', undefined, '0', undefined],
      ['Vendor|X', 'Prod\\uct', '3', 'a = b\nline2', '1', undefined],
      [undefined, undefined, undefined, undefined, undefined, undefined],
    ]);
    expect(strings('cef EXT.Version Signature Name DeviceVersion', DATA, ['Version', 'Signature', 'Name', 'DeviceVersion'])[1]).toEqual([
      '11.0',
      'APPFW',
      'APPFW_STARTURL',
      'NS11.0',
    ]);
  });

  it.each([
    ['cef Severity==6', [0, 1]],
    ['cef Severity==10 src', [2]],
    ['cef DeviceVendor==Citrix DeviceProduct==NetScaler Severity Ext.Version msg ~ Banned', [0, 1]],
    ['cef msg!~Banned', [2, 3, 4]],
    ['cef DeviceVendor!="Citrix"', [2, 3, 4]],
    ['cef -s DeviceVendor src', [0, 1, 2]],
    ['cef -s Ext.Version', [1]],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    const d = linesToEntries(['{"cef":"CEF:0|V|P|1|s|n|5|dst=10.1.1.1"}']);
    expect(strings('json cef | cef -e cef DeviceVendor dst', d, ['DeviceVendor', 'dst'])).toEqual([['V', '10.1.1.1']]);
  });

  it.each([
    ['cef', 'ModuleError: cef: missing key argument'],
    ['cef Severity>5', 'ModuleError: cef: operator > is not supported on Severity (supported: == != ~ !~)'],
    ['cef -v msg', 'ModuleError: cef: unknown flag -v'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('cef DeviceVendor Severity | count by DeviceVendor | table DeviceVendor count', DATA);
    expectDistributedEqual('cef -s src msg | table src msg', DATA);
  });
});
