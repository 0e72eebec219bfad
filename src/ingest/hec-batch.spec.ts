import fc from 'fast-check';
import { readHecBatch } from './hec-batch';
import { HecEventContext, parseHecEvents, splitEvents } from './hec.parse';
import { PendingEntry } from './ingest.service';
import { toTagName } from './ingest.rules';

const ctx: HecEventContext & { maxEvents: number } = {
  nowUs: 1_700_000_000_000_000,
  client: '192.0.2.9',
  maxJsonDepth: 5,
  maxEvents: 6,
  tagFor: (st) => (typeof st === 'string' && st.length ? toTagName(st) : 'default'),
};

const plain = (entries: PendingEntry[]) => entries.map((e) => ({ ...e, data: e.data.toString('hex') }));

/** The generic path's answer for a body: its entries and, for a bad event, that event's error. */
function generic(body: Buffer) {
  const split = splitEvents(body.toString('utf8'));
  const parsed = parseHecEvents(split.items, ctx, split.depths);
  const failure = parsed.failure ?? split.failure;
  return { items: plain(parsed.items), failure: failure?.message, count: split.items.length };
}

/** Whenever the fast path reads a body, the generic path stores the same entries and has no error. */
function check(body: Buffer): boolean {
  const fast = readHecBatch(body, ctx);
  if (!fast) return false;
  const g = generic(body);
  expect({ items: plain(fast), failure: undefined, count: fast.length }).toEqual(g);
  return true;
}

const text = (s: string) => Buffer.from(s);

describe('readHecBatch (the HEC hot path)', () => {
  it('reads the usual events and gives what the generic path gives', () => {
    const body = text(
      [
        { time: 1700000000.25, event: 'GET /a msg="x"', sourcetype: 'aws:cloudtrail' },
        { event: 'plain é 😀', host: '10.0.0.5', source: 's', index: 'main' },
        { event: { a: [1, 'b'] }, time: '1700000001', fields: { n: 1, s: 'x', b: true, o: { x: null } }, host: 'web-1' },
        { event: 7, time: '', sourcetype: 5 },
        { event: false, time: null, other: [1, { a: '\\' }], fields: null },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    expect(check(body)).toBe(true);
    const entries = readHecBatch(body, ctx)!;
    expect(entries.map((e) => [e.tag, e.src, e.data.toString()])).toEqual([
      ['aws_cloudtrail', '192.0.2.9', 'GET /a msg="x"'],
      ['default', '10.0.0.5', 'plain é 😀'],
      ['default', '192.0.2.9', '{"a":[1,"b"]}'],
      ['default', '192.0.2.9', '7'],
      ['default', '192.0.2.9', 'false'],
    ]);
    expect(entries.map((e) => e.ts)).toEqual([1_700_000_000_250_000, ctx.nowUs, 1_700_000_001_000_000, ctx.nowUs, ctx.nowUs]);
  });

  it('reads escapes in event strings as JSON.parse does', () => {
    for (const ev of ['a\\/b\\b\\f\\n\\r\\t\\"\\\\z', 'x\\u0041 \\ud83d\\ude00 \\ud800 \\udc00\\ud800', 'é😀\\"', '\\\\']) {
      const body = text(`{"event":"${ev}"}\n{"event":"${ev}","time":1}`);
      expect(check(body)).toBe(true);
      expect(readHecBatch(body, ctx)![0].data).toEqual(Buffer.from(JSON.parse(`"${ev}"`) as string));
    }
  });

  it('leaves bad events and unusual bodies to the generic path', () => {
    const cases = [
      '',
      '  \n',
      '{}',
      '{"time":5}',
      '{"event":null}',
      '{"event":""}',
      '{"event":"x","time":"later"}',
      '{"event":"x","time":true}',
      '{"event":"x","fields":[1]}',
      '{"event":"x","fields":{"":1}}',
      '{"event":"x"} {"event":',
      '{"event":"x"}x',
      '{"event":"x"}]',
      '["x"]',
      '"x"',
      '\ufeff{"event":"x"}',
      '\u00a0{"event":"x"}',
      '{"event":"x\ty"}',
      '{"event":"x\\q"}',
      '{"event":"x","a":01}',
      '{"event":"x","a":[[[[[1]]]]]}',
      '{"event":"x",}',
      Array.from({ length: 7 }, () => '{"event":"x"}').join(''),
    ];
    for (const c of cases) expect(readHecBatch(text(c), ctx)).toBeUndefined();
    expect(readHecBatch(Buffer.from([0x7b, 0x22, 0x65, 0x76, 0x65, 0x6e, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), ctx)).toBeUndefined(); // invalid UTF-8
    expect(readHecBatch(text('{"event":"x"}'), { ...ctx, maxJsonDepth: 0 })).toBeUndefined();
  });

  it('gives what the generic path gives for any body it reads (property)', () => {
    const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 10 }, { arbitrary: other, weight: 1 });
    const str = fc.oneof(fc.constantFrom('GET /x msg="ok"', 'a\\b', 'tab\there', 'é', '😀', '\u2028', '\ud800', '</script>', 'x'.repeat(50)), fc.string({ maxLength: 8 }));
    const anyValue = fc.oneof(
      str,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.constant([1, { a: 'b' }]),
      fc.constant({ x: { y: 1 } }),
    );
    const event = fc.record(
      {
        event: mostly(
          str.filter((s) => s.length > 0),
          anyValue,
        ),
        time: mostly(
          fc.oneof(
            fc.constant(undefined),
            fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }),
            fc.double({ min: 1e9, max: 2e9, noNaN: true }),
            fc.constantFrom('1700000000', '1700000000.5', '2024-01-02T03:04:05Z', '', null),
          ),
          fc.constantFrom('later', -5, true, {}, [1]),
        ),
        sourcetype: fc.oneof(fc.constant(undefined), fc.constantFrom('aws:cloudtrail', 'app', 'a b', '', 'é'), anyValue),
        host: fc.oneof(fc.constant(undefined), fc.constantFrom('10.0.0.1', ' 10.0.0.2', '::ffff:10.0.0.3', 'web-1', ''), anyValue),
        source: fc.oneof(fc.constant(undefined), anyValue),
        index: fc.oneof(fc.constant(undefined), anyValue),
        fields: fc.oneof(
          fc.constant(undefined),
          fc.constantFrom({ n: 1, s: 'x' }, { host: 'f' }, {}, null),
          mostly(fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), anyValue, { maxKeys: 3 }), fc.constantFrom([1], 'x', { '': 1 })),
        ),
        other: fc.oneof(fc.constant(undefined), anyValue),
      },
      { requiredKeys: [] },
    );
    const body = fc
      .tuple(
        fc.array(event, { minLength: 1, maxLength: 7 }),
        fc.constantFrom('', '\n', ' ', '\r\n\t'),
        fc.constantFrom(undefined, undefined, undefined, 'cut', 'escape', 'deep', 'dup'),
      )
      .map(([events, sep, twist]) => {
        let t = events.map((e) => JSON.stringify(e)).join(sep);
        if (twist === 'cut') t = t.slice(0, Math.floor(t.length * 0.7));
        if (twist === 'escape') t = t.replace(/"event":"(.)/, (_, c: string) => `"event":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        if (twist === 'deep') t = t.replace('{', '{"z":[[[[[0]]]]],');
        if (twist === 'dup') t = t.replace('{', '{"event":"first","sourcetype":"dup",');
        return text(t);
      });
    let read = 0;
    fc.assert(
      fc.property(body, (b) => {
        if (check(b)) read++;
      }),
      { numRuns: 4000 },
    );
    expect(read).toBeGreaterThan(800);
  });
});
