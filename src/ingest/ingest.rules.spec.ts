import { AppError } from '../common/errors/app-error';
import { splitConcatenatedJson } from './hec.parse';
import { checkSource, decodeBase64, decodeEnumerated, splitLines, tagNameProblem, toTagName } from './ingest.rules';

describe('ingest rules', () => {
  it('tag names', () => {
    for (const ok of ['default', 'syslog-http', 'a_b', 'x'.repeat(64), 'Ünïcode']) expect(tagNameProblem(ok)).toBeUndefined();
    for (const bad of ['', 'x'.repeat(65), 'a b', 'a\tb', ...'!@#$%^&*()=+<>,.:;"\'{}[]|\\'.split('').map((c) => `a${c}b`), 5, null]) {
      expect(tagNameProblem(bad)).toEqual(expect.any(String));
    }
  });

  it('sources, base64, enumerated values', () => {
    expect(checkSource('10.0.0.1')).toBe('10.0.0.1');
    expect(checkSource('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(checkSource('')).toBeUndefined();
    expect(() => checkSource('host.example')).toThrow(AppError);
    expect(decodeBase64('Zm9v', 'Data').toString()).toBe('foo');
    expect(decodeBase64('', 'Data').length).toBe(0);
    for (const bad of ['Zm9', 'Zm9v!', 'Zm 9v', 5]) expect(() => decodeBase64(bad, 'Data')).toThrow('Data must be base64 data');
    const i64 = Buffer.alloc(8);
    i64.writeBigInt64LE(-5n);
    expect(
      decodeEnumerated(
        [
          { Name: 's', ValueStr: 'x' },
          { Name: 'n', Value: { Type: 9, Data: i64.toString('base64') } },
          { Name: 'b', Value: { Type: 2, Data: 'AQ==' } },
          { Name: 'raw', Value: { Type: 1, Data: 'AAE=' } },
        ],
        'e',
      ),
    ).toEqual([
      ['s', 'x'],
      ['n', -5],
      ['b', true],
      ['raw', { b64: 'AAE=' }],
    ]);
    expect(() => decodeEnumerated([{ Name: 'n', Value: { Type: 9, Data: 'AQ==' } }], 'e')).toThrow('needs 8 bytes');
    expect(() => decodeEnumerated('x', 'e')).toThrow('must be an array');
  });

  it('splits lines and concatenated JSON', () => {
    expect(splitLines(Buffer.from('a\r\nb\n\nc')).map(String)).toEqual(['a', 'b', 'c']);
    expect(splitConcatenatedJson('{"a":"}{"} {"b":[1,{"c":2}]}\n{"d":"\\"}"}')).toEqual({ items: ['{"a":"}{"}', '{"b":[1,{"c":2}]}', '{"d":"\\"}"}'] });
    expect(splitConcatenatedJson('  ')).toEqual({ items: [] });
    // Malformed text ends the batch: the values before it are kept, the failure names its index.
    const open = splitConcatenatedJson('{"a":1}{"b":2');
    expect(open.items).toEqual(['{"a":1}']);
    expect(open.failure).toMatchObject({ status: 400, hecCode: 6, message: 'Invalid data format', invalidEvent: 1 });
    expect(splitConcatenatedJson('{"a":1} x {"c":3}')).toMatchObject({ items: ['{"a":1}'], failure: { invalidEvent: 1 } });
  });

  it('makes a valid tag of any sourcetype', () => {
    expect(toTagName('aws:cloudtrail')).toBe('aws_cloudtrail');
    expect(toTagName('a b.c|d\u0000e')).toBe('a_b_c_d_e');
    expect(toTagName('x'.repeat(70))).toBe('x'.repeat(64));
    expect(toTagName('x'.repeat(63) + '😀')).toBe('x'.repeat(63));
    expect(toTagName('a\ud800b')).toBe('a_b');
    for (const s of ['aws:cloudtrail', '!@#$%^&*()=+<>,.:;"\'{}[]|\\ \t', 'Ünïcode 😀']) expect(tagNameProblem(toTagName(s))).toBeUndefined();
  });
});
