import fc from 'fast-check';
import { decodeBase64, encodeBase64 } from './base64';
import { hexlify, unhexlify } from './hexlify';
import { expectDistributedEqual, kept, linesToEntries, outEntries, parseError, run, strings, values } from './extraction.spec-helper';

const b = (s: string) => Buffer.from(s);

describe('base64 module', () => {
  it("decodes the page's example: a value extracted by regex, into -t, then grep on it", () => {
    const d = linesToEntries([`GET /x?id=${b('admin').toString('base64')}`, `GET /x?id=${b('guest').toString('base64')}`]);
    const q = 'regex "id=(?P<id>\\S+)" | base64 -t decodedid -d id | grep -e decodedid admin';
    expect(values(q, d, ['id', 'decodedid'])).toEqual([['YWRtaW4=', b('admin')]]);
  });

  it('encodes DATA in place, an EV in place or into -t; -u and -raw pick the alphabet and padding', () => {
    const d = linesToEntries([Buffer.from([0xfb, 0xff, 0xfe, 0x41])]);
    expect(outEntries('base64', d)[0].data.toString()).toBe('+//+QQ==');
    expect(strings('base64 -t x', d, ['x'])).toEqual([['+//+QQ==']]);
    expect(strings('base64 -u -t x', d, ['x'])).toEqual([['-__-QQ==']]);
    expect(strings('base64 -raw -t x', d, ['x'])).toEqual([['+//+QQ']]);
    expect(strings('base64 -u -raw -t x', d, ['x'])).toEqual([['-__-QQ']]);
    expect(strings('kv k | base64 k', linesToEntries(['k=hi']), ['k'])).toEqual([['aGk=']]);
  });

  it('decodes best effort (what precedes the first error), -s drops entries that do not decode entirely', () => {
    const d = linesToEntries(['aGVsbG8=', 'aGVs*bG8=', 'aGVsbG8', '!!', 'aGVs\nbG8=']);
    expect(values('base64 -d -t x', d, ['x'])).toEqual([[b('hello')], [b('hel')], [b('hel')], [b('')], [b('hello')]]);
    expect(kept('base64 -d -s -t x', d)).toEqual([0, 4]);
    expect(values('base64 -d -raw -s -t x', linesToEntries(['aGVsbG8', 'aGVsbG8=']), ['x'])).toEqual([[b('hello')]]);
    expect(values('base64 -d -u -t x', linesToEntries(['-__-QQ==']), ['x'])).toEqual([[Buffer.from([0xfb, 0xff, 0xfe, 0x41])]]);
    expect(outEntries('base64 -d', linesToEntries(['aGk=']))[0].data).toEqual(b('hi'));
  });

  it('leaves entries lacking the EV unchanged', () => {
    expect(strings('kv k | base64 -t x k', linesToEntries(['a=1']), ['x'])).toEqual([[undefined]]);
  });

  it('round-trips any bytes in all four variants (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), fc.boolean(), (a, url, raw) => {
        const bytes = Buffer.from(a);
        const enc = encodeBase64(bytes, url, raw);
        const dec = decodeBase64(Buffer.from(enc), url, raw);
        return dec.complete && dec.bytes.equals(bytes) && (raw ? !enc.includes('=') : enc.length % 4 === 0);
      }),
    );
    // and agrees with Node's decoder on valid standard input
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (a) => decodeBase64(Buffer.from(Buffer.from(a).toString('base64')), false, false).bytes.equals(Buffer.from(a))));
  });

  it('stays bounded on hostile input: binary garbage decodes to a prefix no longer than 3/4 of it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.boolean(), fc.boolean(), (a, url, raw) => {
        const d = decodeBase64(Buffer.from(a), url, raw);
        return d.bytes.length <= Math.ceil((a.length * 3) / 4);
      }),
    );
    const huge = Buffer.alloc(4_000_000, 0x41);
    expect((values('base64 -d -t x', linesToEntries([huge]), ['x'])[0][0] as Buffer).length).toBe(3_000_000);
  });

  it.each([
    ['base64 a b', 'ModuleError: base64: unexpected argument "b"'],
    ['base64 -t', 'ModuleError: base64: missing value for flag -t'],
    ['base64 -t "" a', 'ModuleError: base64: target must not be empty'],
    ['base64 -s a', 'ModuleError: base64: -s (strict decoding) needs -d'],
    ['base64 -x a', 'ModuleError: base64: unknown flag -x'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('base64 -t x | base64 -d -t y x | count by y', linesToEntries(['a', 'b', 'a']));
  });
});

describe('hexlify module', () => {
  const d = linesToEntries(['ID=ab Data=xyz']);

  it("follows the page's examples: all data, one EV, DATA as a new name, several with reassignment, decoding", () => {
    expect(outEntries('hexlify', d)[0].data.toString()).toBe(b('ID=ab Data=xyz').toString('hex'));
    expect(strings('kv ID Data | hexlify Data', d, ['ID', 'Data'])).toEqual([['ab', '78797a']]);
    const e = outEntries('hexlify DATA as hexdata', d)[0];
    expect([e.data.toString(), e.evs.get('hexdata')]).toEqual(['ID=ab Data=xyz', b('ID=ab Data=xyz').toString('hex')]);
    expect(strings('kv ID Data | hexlify ID as hexid Data as hexdata', d, ['ID', 'hexid', 'Data', 'hexdata'])).toEqual([['ab', '6162', 'xyz', '78797a']]);
    expect(values('json val | hexlify -d val as decodedval', linesToEntries(['{"val":"48656c6c6f"}']), ['val', 'decodedval'])).toEqual([['48656c6c6f', b('Hello')]]);
  });

  it('writes an integer as its hex digits; decodes an optional 0x prefix; leaves text that is not hex without output', () => {
    expect(strings('json n | hexlify n', linesToEntries(['{"n":255}', '{"n":-16}']), ['n'])).toEqual([['ff'], ['-10']]);
    expect(values('kv v | hexlify -d v as x', linesToEntries(['v=0x4142', 'v=414', 'v=zz', 'v=']), ['x'])).toEqual([[b('AB')], [undefined], [undefined], [b('')]]);
  });

  it('round-trips any bytes (property), and decoding is case-insensitive', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (a) => unhexlify(hexlify(Buffer.from(a)))!.equals(Buffer.from(a))));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 50 }), (a) => unhexlify(hexlify(Buffer.from(a)).toUpperCase())!.equals(Buffer.from(a))));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (a) => unhexlify(Buffer.from(a)) === undefined || unhexlify(Buffer.from(a))!.length * 2 <= a.length));
  });

  it('builds at most 16 MiB of values for an entry, with a warning', () => {
    const d = linesToEntries([`v=${'x'.repeat(1_000_000)}`]);
    const names = Array.from({ length: 20 }, (_, i) => `x${i}`);
    const r = run(`kv v | hexlify ${names.map((n) => `v as ${n}`).join(' ')}`, d);
    expect(r.kind === 'entries' && names.filter((n) => r.Entries[0].evs.has(n)).length).toBe(8); // 8 x 2 MB
    expect(r.Warnings).toEqual(['hexlify: the values for an entry would pass 16 MiB; the later ones were left out']);
  });

  it.each([
    ['hexlify a as', 'ModuleError: hexlify: missing name after "as"'],
    ['hexlify a as x b as x', 'ModuleError: hexlify: the same output name is given twice, use "as" to rename'],
    ['hexlify -e a', 'ModuleError: hexlify: unknown flag -e'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('hexlify DATA as h | hexlify -d h as back | count by back', linesToEntries(['a', 'b', 'a']));
  });
});
