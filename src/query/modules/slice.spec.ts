import fc from 'fast-check';
import { castBytes, sliceBytes } from './slice';
import { expectDistributedEqual, kept, linesToEntries, parseError, run, values } from './extraction.spec-helper';

/** Entries whose EV `data` holds the bytes given in hex (hexlify -d builds it). */
const hexData = (hexes: string[]) => linesToEntries(hexes.map((h) => `d=${h}`));
const ON = 'kv d | hexlify -d d as data';

describe('slice module', () => {
  it("reads the page's canbus example: the first two bytes of data as a big-endian uint16", () => {
    expect(values(`${ON} | slice uint16be(data[0:2]) as RPM`, hexData(['0bb8ff', '0001']), ['RPM'])).toEqual([[3000], [1]]);
  });

  it("follows the page's table (with Go's offsets: [0:4] is four bytes, [9:11] two)", () => {
    const payload = '000102030405060708090a0b0c0d';
    const d = linesToEntries([`p=${payload} x`]);
    const q = (s: string, n: string) => values(`kv p | hexlify -d p as Payload | ${s}`, d, [n])[0][0];
    expect(values('slice [0:4] as foo', linesToEntries(['abcdefgh']), ['foo'])).toEqual([[Buffer.from('abcd')]]);
    expect(q('slice uint16le(Payload[9:11]) as value', 'value')).toBe(0x0a09);
    expect(q('slice uint16be(Payload[-2:]) as value', 'value')).toBe(0x0c0d);
    expect(q('slice uint16be(Payload[-4:-2]) as value2', 'value2')).toBe(0x0a0b);
    expect(q('slice Payload[2] as one', 'one')).toEqual(Buffer.from([2]));
    expect(q('slice Payload[:2]', 'Payload')).toEqual(Buffer.from([0, 1]));
  });

  it.each<[string, string, unknown]>([
    ['byte', 'ff', 255],
    ['int16', 'feff', -2],
    ['int16be', 'fffe', -2],
    ['uint16', '3412', 0x1234],
    ['int32le', 'feffffff', -2],
    ['uint32be', '12345678', 0x12345678],
    ['int64be', 'fffffffffffffffe', -2],
    ['uint64', 'ffffffffffffffff', '18446744073709551615'], // beyond 2^53: the exact digits
    ['float32be', '3fc00000', 1.5],
    ['float64', '000000000000f83f', 1.5],
    ['string', '68c3a9', 'hé'],
    ['array', '0102', Buffer.from([1, 2])],
    ['IPv4', '0a000001', '10.0.0.1'],
    ['IPv6', '20010db8000000000000000000000001', '2001:db8::1'],
  ])('casts %s of %s', (type, hex, out) => {
    expect(values(`${ON} | slice ${type}(data[0:]) as v`, hexData([hex]), ['v'])).toEqual([[out]]);
  });

  it('filters by type (numbers compare, IPs match a CIDR); a slice outside the value gives no value and fails a positive filter', () => {
    const d = hexData(['0a000001', 'c0a80001', '01']);
    expect(kept(`${ON} | slice IPv4(data[0:4]) ~ 10.0.0.0/8 as ip`, d)).toEqual([0]);
    expect(kept(`${ON} | slice IPv4(data[0:4]) !~ 10.0.0.0/8 as ip`, d)).toEqual([1, 2]);
    expect(kept(`${ON} | slice IPv4(data[0:4]) == 192.168.0.1 as ip`, d)).toEqual([1]);
    expect(kept(`${ON} | slice byte(data[0:1]) > 5`, d)).toEqual([0, 1]);
    expect(values(`${ON} | slice uint32(data[0:4]) as v`, d, ['v'])[2]).toEqual([undefined]);
    expect(kept('slice string([0:3]) == abc', linesToEntries(['abcdef', 'xyz', 'ab']))).toEqual([0]);
    expect(kept('slice [1:] ~ yz', linesToEntries(['abcdef', 'xyz', 'ab']))).toEqual([1]);
  });

  it('properties: a slice is within bounds and matches Buffer.subarray on valid offsets; casts never throw on garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), (a, s, e) => {
        const b = Buffer.from(a);
        const out = sliceBytes(b, s, e);
        if (out === undefined) return true;
        const s2 = s < 0 ? b.length + s : s;
        return out.length <= b.length && out.equals(b.subarray(s2, s2 + out.length));
      }),
    );
    const types = ['byte', 'int16be', 'uint32', 'int64', 'uint64be', 'float32', 'float64be', 'string', 'IPv4', 'IPv6'].map((t) => /^(u?int|float)(\d+)/.exec(t));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), (a) => {
        for (const m of types) castBytes(Buffer.from(a), m ? { size: (Number(m[2]) / 8) as 2, kind: m[1] as 'int', be: false } : { kind: 'string' });
        return true;
      }),
    );
  });

  it('slices at most 16 MiB for an entry, with a warning', () => {
    const d = linesToEntries([`v=${'x'.repeat(1_000_000)}`]);
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const r = run(`kv v | slice ${names.map((n) => `v[0:] as ${n}`).join(' ')}`, d);
    expect(r.kind === 'entries' && names.filter((n) => r.Entries[0].evs.has(n)).length).toBe(16); // 16 x 1 MB
    expect(r.Warnings).toEqual(['slice: the values for an entry would pass 16 MiB; the later ones were left out']);
  });

  it.each([
    ['slice', 'ModuleError: slice: missing slice, e.g. slice uint16be(data[0:2]) as RPM'],
    ['slice data', 'ModuleError: slice: invalid slice "data": expected EV[start:end] or [start:end] for the entry data'],
    [
      'slice uint12(data[0:2])',
      'ModuleError: slice: unknown type "uint12" (types: byte, int16 int32 int64, uint16 uint32 uint64, float32 float64 (with le or be), array, string, IPv4, IPv6)',
    ],
    ['slice uint16(data[0:2]', 'ModuleError: slice: missing ")" after uint16(data[0:2]'],
    ['slice uint16(data[0:2]) ~ 5', 'ModuleError: slice: operator ~ is not supported on uint16 (supported: == != < <= > >=)'],
    ['slice data[0:2] < 5', 'ModuleError: slice: operator < is not supported on bytes (supported: == != ~ !~)'],
    ['slice IPv4(data[0:4]) ~ 10.0.0.0/99', 'ModuleError: slice: invalid IPv4 filter value "10.0.0.0/99" (expected an address or a CIDR such as 10.0.0.0/8)'],
    ['slice data[0:99999999999999999999]', 'ModuleError: slice: invalid offset in "data[0:99999999999999999999]"'],
    ['slice data[0:2] as', 'ModuleError: slice: missing name after "as"'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual(`${ON} | slice uint16be(data[0:2]) as v | sum v`, hexData(['0001', '0002', 'ff']));
  });
});
