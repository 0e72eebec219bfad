import fc from 'fast-check';
import { printable } from './strings';
import { expectDistributedEqual, kept, linesToEntries, outEntries, parseError, strings } from './extraction.spec-helper';

const BIN = Buffer.concat([Buffer.from([0x00, 0x01]), Buffer.from('hello world'), Buffer.from([0xff, 0x02]), Buffer.from('ab'), Buffer.from([0x7f])]);
const D = linesToEntries([BIN, Buffer.from([0, 1, 2, 0x41, 0x42]), Buffer.from('héllo\tthere')]);

describe('strings module', () => {
  it("follows the page's table: on the data, -n, -t foo, -t foo Payload", () => {
    expect(outEntries('strings', D).map((e) => e.data.toString())).toEqual(['..hello world..ab.', 'héllo\tthere']);
    expect(kept('strings -n 11', D)).toEqual([0, 2]);
    expect(kept('strings -n 12', D)).toEqual([]);
    expect(kept('strings -n 2', D)).toEqual([0, 1, 2]);
    const t = outEntries('strings -t foo', D);
    expect(t.map((e) => [e.data.length, e.evs.get('foo')])).toEqual([
      [BIN.length, '..hello world..ab.'],
      [Buffer.byteLength('héllo\tthere'), 'héllo\tthere'],
    ]);
    expect(strings('hexlify DATA as h | hexlify -d h as Payload | strings -t foo Payload', D, ['foo'])).toEqual([['..hello world..ab.'], ['héllo\tthere']]);
  });

  it('drops entries lacking the source', () => {
    expect(kept('strings nothere', D)).toEqual([]);
  });

  it('properties: one period or character per input character, never longer than the input; printable text is unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (a) => {
        const { text, longest } = printable(Buffer.from(a));
        return [...text].length <= a.length && longest <= a.length;
      }),
    );
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', '😀', '\t') }), (s) => printable(Buffer.from(s)).text === s));
  });

  it.each([
    ['strings -n 0', 'ModuleError: strings: the minimum length (-n) must be between 1 and 1000000, not 0'],
    ['strings -n x', 'ModuleError: strings: the minimum length (-n) must be a whole number, not "x"'],
    ['strings -t "" x', 'ModuleError: strings: target must not be empty'],
    ['strings a b', 'ModuleError: strings: unexpected argument "b"'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('strings -n 3', D);
  });
});
