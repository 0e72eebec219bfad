import fc from 'fast-check';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { IndexerService } from '../indexer/indexer.service';
import { IngestService, PendingEntry } from './ingest.service';
import { readJsonBatch } from './json-batch';

const CLIENT = '192.0.2.7';
const config = { maxJsonDepth: 6, maxIngestEntries: 20 } as AppConfig;
const svc = new IngestService(config, {} as IndexerService);
const opts = { client: CLIENT, maxDepth: config.maxJsonDepth, maxEntries: config.maxIngestEntries };

type Outcome = { entries: Array<Omit<PendingEntry, 'data'> & { data: string }> } | { status: number; message: string };

function outcome(read: () => PendingEntry[]): Outcome {
  try {
    return { entries: read().map((e) => ({ ...e, data: e.data.toString('hex') })) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, message: err.message };
  }
}

/** The body through the service (fast path, else generic) and through the generic path alone: the same entries or the same error. */
function same(text: string | Buffer): Outcome {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const generic = outcome(() => svc.parseJsonEntries(body, CLIENT));
  expect(outcome(() => svc.jsonEntries(body, CLIENT))).toEqual(generic);
  return generic;
}

const fast = (text: string) => readJsonBatch(Buffer.from(text), opts);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const entry = (over: Record<string, unknown> = {}) => ({ TS: '2024-05-01T10:00:00.5Z', Tag: 'web', Data: b64('hello'), ...over });

describe('readJsonBatch (the JSON ingest hot path)', () => {
  it('reads the usual body and gives what the generic path gives', () => {
    const body = JSON.stringify([entry(), entry({ TS: '2024-05-01T10:00:01+02:00', SRC: '10.1.2.3' }), entry({ Tag: 'db', SRC: null, Enumerated: null })]);
    expect(fast(body)).toHaveLength(3);
    const r = same(body);
    expect(r).toEqual({
      entries: [
        { ts: Date.UTC(2024, 4, 1, 10, 0, 0, 500) * 1000, tag: 'web', src: CLIENT, data: b64hex('hello'), evs: null },
        { ts: Date.UTC(2024, 4, 1, 8, 0, 1) * 1000, tag: 'web', src: '10.1.2.3', data: b64hex('hello'), evs: null },
        { ts: Date.UTC(2024, 4, 1, 10, 0, 0, 500) * 1000, tag: 'db', src: CLIENT, data: b64hex('hello'), evs: null },
      ],
    });
  });

  it('takes whitespace, other keys, duplicate keys (the last counts), SRC forms and Enumerated as JSON.parse does', () => {
    const cases = [
      ` \n[ {"TS" : "2024-05-01T10:00:00Z" ,\t"Tag":"a", "Data":"" } ]\r\n`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","x":1.5e3,"y":true,"z":false,"n":null,"s":"é","o":{"a":[1,{"b":"]"}]},"a":[]}]`,
      `[{"TS":"yesterday","TS":"2024-05-01T10:00:00Z","Tag":"a","Tag":"b","Data":"QUJD","Data":"QUI="}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QR==","SRC":"::ffff:10.0.0.1"},{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","SRC":""}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","SRC":" 10.0.0.1 "}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","Enumerated":[{"Name":"u","ValueStr":"bob"},{"Name":"n","Value":{"Type":3,"Data":"Bw=="}}]}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","Enumerated":[]}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"Ünïcode","Data":"QQ=="},{"TS":"2024-05-01T10:00:00Z","Tag":"Ünïcode","Data":"QQ=="}]`,
      `[{"TS":"2024-05-01t10:00:00,123456789-07:30","Tag":"a","Data":"QQ=="},{"TS":"2024-05-01 10:00:00+0100","Tag":"a","Data":"QQ=="}]`,
      // Not read by the fast path, read by the generic one: the same entries.
      `[{"TS":" 2024-05-01T10:00:00Z","Tag":"a","Data":"QQ=="}]`,
      `[{"TS":"2024-05-01T10:00:00\\u005a","Tag":"\\u0061","Data":"QQ=="}]`,
      `[{"TS":"2016-12-31T23:59:60Z","Tag":"a","Data":"QQ=="}]`,
      `[{"TS":"0070-01-01T00:00:00Z","Tag":"a","Data":"QQ=="}]`,
      `[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","__proto__":{"TS":1}}]`,
    ];
    for (const c of cases) expect(same(c)).toEqual({ entries: expect.any(Array) });
    expect(fast(cases[1])).toBeDefined();
    expect(fast(cases[5])).toBeDefined();
  });

  it('leaves every problem to the generic path, which gives the error', () => {
    const cases: Array<[string | Buffer, number, string]> = [
      ['', 400, 'Malformed JSON body'],
      ['[]x', 400, 'Malformed JSON body'],
      [`[${JSON.stringify(entry())}]]`, 400, 'Malformed JSON body'],
      [`\ufeff[${JSON.stringify(entry())}]`, 400, 'Malformed JSON body'],
      [`[{"TS":"2024-05-01T10:00:00Z","Tag":"a\tb","Data":"QQ=="}]`, 400, 'Malformed JSON body'],
      [`[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==",}]`, 400, 'Malformed JSON body'],
      [`[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","x":01}]`, 400, 'Malformed JSON body'],
      [`[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","x":[[[[[1]]]]]}]`, 400, 'JSON nests deeper than 6 levels'],
      [`[{"TS":"2024-05-01T10:00:00Z","Tag":"a","Data":"QQ==","Enumerated":[[[[["x"]]]]]}]`, 400, 'JSON nests deeper than 6 levels'],
      [JSON.stringify({}), 400, 'Body must be a JSON array of entries'],
      [JSON.stringify([entry(), 5]), 400, 'entry 1 must be an object'],
      [JSON.stringify(Array.from({ length: 21 }, () => entry())), 413, 'Too many entries: at most 20 per request (MAX_INGEST_ENTRIES)'],
      [JSON.stringify([entry(), {}]), 400, 'entry 1: TS must be an RFC3339 timestamp between 1970 and 9999'],
      [JSON.stringify([entry({ TS: '2024-02-30T00:00:00Z' })]), 400, 'entry 0: TS must be an RFC3339 timestamp between 1970 and 9999'],
      [JSON.stringify([entry({ TS: '1969-12-31T23:59:59Z' })]), 400, 'entry 0: TS must be an RFC3339 timestamp between 1970 and 9999'],
      [JSON.stringify([entry({ TS: 1714557600 })]), 400, 'entry 0: TS must be an RFC3339 timestamp between 1970 and 9999'],
      [JSON.stringify([entry({ Tag: 'a.b' })]), 400, `entry 0: Tag must not contain whitespace or any of !@#$%^&*()=+<>,.:;"'{}[]|\\`],
      [JSON.stringify([entry({ Tag: '' })]), 400, 'entry 0: Tag must not be empty'],
      [JSON.stringify([entry({ Tag: null })]), 400, 'entry 0: Tag must be a string'],
      [JSON.stringify([entry({ SRC: 'host' })]), 400, 'entry 0: SRC must be an IP address'],
      [JSON.stringify([entry({ SRC: 7 })]), 400, 'entry 0: SRC must be an IP address'],
      [JSON.stringify([entry({ Data: 'QQ=' })]), 400, 'entry 0: Data must be base64 data'],
      [JSON.stringify([entry({ Data: 'QQ==QQ==' })]), 400, 'entry 0: Data must be base64 data'],
      [JSON.stringify([entry({ Data: 'Q===' })]), 400, 'entry 0: Data must be base64 data'],
      [JSON.stringify([entry({ Data: 'QU JD' })]), 400, 'entry 0: Data must be base64 data'],
      [JSON.stringify([entry({ Data: null })]), 400, 'entry 0: Data must be base64 data'],
      [JSON.stringify([entry({ Enumerated: {} })]), 400, 'entry 0.Enumerated must be an array'],
      [
        JSON.stringify([entry({ Enumerated: [{ Name: 'n', Value: { Type: 99, Data: '' } }] })]),
        400,
        'entry 0.Enumerated[0]: unsupported enumerated value type 99 (send ValueStr instead)',
      ],
    ];
    for (const [body, status, message] of cases) {
      expect(fast(String(body))).toBeUndefined();
      expect(same(body)).toEqual({ status, message });
    }
  });

  it('decodes base64 as Buffer.from does, every padding and every byte', () => {
    const r = fc.sample(fc.uint8Array({ maxLength: 40 }), 300);
    for (const bytes of r) {
      const text = Buffer.from(bytes).toString('base64');
      const got = fast(JSON.stringify([entry({ Data: text })]));
      expect(got?.[0].data.toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
    }
    // Bits past the last byte are dropped, as Buffer.from drops them (the rules accept such text).
    for (const text of ['QR==', 'QUJ=', 'QUJDRB==', '////', '++++']) expect(fast(JSON.stringify([entry({ Data: text })]))?.[0].data).toEqual(Buffer.from(text, 'base64'));
  });

  it('gives what the generic path gives for any body (property)', () => {
    // Mostly valid values (so that the fast path reads many bodies), some of every kind of problem.
    const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: other, weight: 1 });
    const ts = mostly(
      fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.oneof(
        fc
          .tuple(
            fc.integer({ min: 1960, max: 10000 }),
            fc.integer({ min: 0, max: 13 }),
            fc.integer({ min: 0, max: 32 }),
            fc.integer({ min: 0, max: 24 }),
            fc.integer({ min: 0, max: 60 }),
            fc.integer({ min: 0, max: 61 }),
            fc.constantFrom('', '.5', ',123', '.123456789', '.1234567890', '.'),
            fc.constantFrom('', 'Z', 'z', '+01:00', '-0730', '+99:99', '-00:00', '+1', ' ', 'Zx'),
            fc.constantFrom('T', 't', ' ', 'x'),
          )
          .map(([y, mo, d, h, mi, s, frac, zone, sep]) => `${String(y).padStart(4, '0')}-${pad(mo)}-${pad(d)}${sep}${pad(h)}:${pad(mi)}:${pad(s)}${frac}${zone}`),
        fc.constantFrom('', 'x', ' 2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z\n', '2024-1-01T00:00:00Z'),
      ),
    );
    const tag = mostly(fc.constantFrom('web', 'db', 'Ünïcode', 'x'.repeat(64)), fc.oneof(fc.constantFrom('a.b', '', 'x'.repeat(65)), fc.string({ maxLength: 6 })));
    const data = mostly(
      fc.uint8Array({ maxLength: 30 }).map((b) => Buffer.from(b).toString('base64')),
      fc.constantFrom('QR==', 'Q===', 'QQ', 'QQ==QQ==', ' QQ==', 'QQ==\n', '-_-_'),
    );
    const src = mostly(fc.constantFrom(undefined, null, '', '10.0.0.1', '::ffff:10.0.0.2', '::1', 'fe80::1', ' 10.0.0.3'), fc.constantFrom('host', 5));
    const enumerated = mostly(
      fc.constantFrom(undefined, null, [], [{ Name: 'u', ValueStr: 'bob' }], [{ Name: 'n', Value: { Type: 2, Data: 'AQ==' } }]),
      fc.constantFrom([{ Name: '' }], 'x', [[[[[1]]]]]),
    );
    const anEntry = fc.record({
      TS: ts,
      Tag: tag,
      Data: data,
      SRC: src,
      Enumerated: enumerated,
      other: fc.constantFrom(undefined, 1, -0.5e-3, 'x', true, null, [1, [2]], { a: null }),
    });
    const body = fc
      .tuple(
        fc.array(anEntry, { minLength: 0, maxLength: 4 }),
        fc.constantFrom('', ' ', '\n\t'),
        fc.constantFrom(undefined, undefined, undefined, undefined, 'escape', 'cut', 'deep', 'reorder'),
      )
      .map(([entries, ws, twist]) => {
        let text = JSON.stringify(
          entries.map(({ other, ...e }) => (other === undefined ? e : { other, ...e })),
          null,
          ws,
        );
        if (twist === 'escape') text = text.replace(/"Tag":"(.)/, (_, c: string) => `"Tag":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        if (twist === 'cut') text = text.slice(0, Math.floor(text.length / 2));
        if (twist === 'deep') text = text.replace('"Data"', '"z":[[[[[[0]]]]]],"Data"');
        if (twist === 'reorder') text = text.replace(/"TS":("[^"]*"),("Tag":"[^"]*")/, '$2,"TS":$1');
        return text;
      });
    let fastReads = 0;
    fc.assert(
      fc.property(body, (text) => {
        if (fast(text)) fastReads++;
        same(text);
      }),
      { numRuns: 3000 },
    );
    expect(fastReads).toBeGreaterThan(600);
  });
});

const pad = (n: number) => String(n).padStart(2, '0');
const b64hex = (s: string) => Buffer.from(s).toString('hex');
