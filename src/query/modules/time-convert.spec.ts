import fc from 'fast-check';
import { formatGoTime, grindTime, parseGoTime, parseLayout } from './go-time';
import { expectDistributedEqual, linesToEntries, parseError, strings } from './extraction.spec-helper';

const ONE = linesToEntries(['x']); // its time: 2024-01-01T00:00:01Z, a Monday
const ev = (q: string, name: string, d = ONE) => strings(q, d, [name]).map((r) => r[0]);
const CHICAGO = 'time -oformat "Mon Jan _2 15:04:05 2006 MST" -tz "America/Chicago" TIMESTAMP foo';

describe('time module', () => {
  it("formats the entry time as the page's example, and parses it back into a timestamp (fractions lost, as the page notes)", () => {
    expect(ev(CHICAGO, 'foo')).toEqual(['Sun Dec 31 18:00:01 2023 CST']);
    expect(ev(`${CHICAGO} | time -iformat "Mon Jan _2 15:04:05 2006 MST" -tz "America/Chicago" foo bar`, 'bar')).toEqual(['2024-01-01T00:00:01.000000Z']);
    expect(ev('time -oformat "Mon Jan _2 15:04:05 2006 MST" TIMESTAMP formattedTS', 'formattedTS')).toEqual(['Mon Jan  1 00:00:01 2024 UTC']);
  });

  it.each([
    ['2006-01-02T15:04:05.000Z07:00', 'UTC', '2024-01-01T00:00:01.000Z'],
    ['2006-01-02 15:04:05.999999 -0700', 'Asia/Kolkata', '2024-01-01 05:30:01 +0530'],
    ['3:04PM Monday January 2 002 06', 'America/Los_Angeles', '4:00PM Sunday December 31 365 23'],
    ['02/Jan/2006:15:04:05 Z07:00', 'Europe/Berlin', '01/Jan/2024:01:00:01 +01:00'],
    ['Mon, 02 Jan 2006 15:04:05 MST', 'Europe/Berlin', 'Mon, 01 Jan 2024 01:00:01 CET'],
    ['15:04:05 pm', 'UTC', '00:00:01 am'],
  ])('formats with -oformat %p in %s', (layout, tz, out) => {
    expect(ev(`time -oformat "${layout}" -tz ${tz} TIMESTAMP t`, 't')).toEqual([out]);
  });

  it.each([
    ['2024-05-01T10:00:00.123456789+02:00', '2024-05-01T08:00:00.123456Z'],
    ['2024-05-01 10:00:00', '2024-05-01T10:00:00.000000Z'],
    ['10/Oct/2000:13:55:36 -0700', '2000-10-10T20:55:36.000000Z'],
    ['Mon, 02 Jan 2006 15:04:05 GMT', '2006-01-02T15:04:05.000000Z'],
    ['Jan  5 10:00:00', '2024-01-05T10:00:00.000000Z'], // syslog: the year of the entry
    ['1700000000', '2023-11-14T22:13:20.000000Z'],
    ['1700000000123', '2023-11-14T22:13:20.123000Z'],
    ['1700000000.5', '2023-11-14T22:13:20.500000Z'],
    ['1700000000123456789', '2023-11-14T22:13:20.123456Z'],
    ['07/04/2024 01:02:03 PM', '2024-07-04T13:02:03.000000Z'],
  ])('parses %p without a layout (timegrinder)', (text, out) => {
    const d = linesToEntries([JSON.stringify({ t: text })]);
    expect(ev('json t | time t ts', 'ts', d)).toEqual([out]);
  });

  it('applies -tz to text without an offset (daylight saving included), parses with -iformat, gives no output for what does not parse', () => {
    const d = linesToEntries(['{"t":"2024-07-04 12:00:00","u":"2024-01-04 12:00:00","bad":"not a time","feb":"2024-02-30"}']);
    expect(strings('json t u bad feb | time -tz America/Denver t a | time -tz America/Denver u b | time bad c | time feb e', d, ['a', 'b', 'c', 'e'])).toEqual([
      ['2024-07-04T18:00:00.000000Z', '2024-01-04T19:00:00.000000Z', undefined, undefined],
    ]);
    const d2 = linesToEntries(['{"t":"04.07.2024 12h30"}']);
    expect(ev('json t | time -iformat "02.01.2006 15h04" -tz Europe/Paris t x', 'x', d2)).toEqual(['2024-07-04T10:30:00.000000Z']);
    expect(ev('json t | time -iformat "2006-01-02" t x', 'x', d2)).toEqual([undefined]);
    expect(ev('json t | time -iformat "02.01.2006 15h04" -oformat "2006-01-02T15:04" t x', 'x', d2)).toEqual(['2024-07-04T12:30']);
  });

  it('properties: format then parse with an offset layout is the identity in any zone; formatting agrees with Intl', () => {
    const zones = ['UTC', 'America/Chicago', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham'];
    const layout = parseLayout('2006-01-02T15:04:05.000000-07:00:00');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000_000 }), fc.constantFrom(...zones), (us, tz) => {
        return parseGoTime(formatGoTime(us, layout, tz), layout, tz, 2000) === us;
      }),
    );
    const plain = parseLayout('2006-01-02 15:04:05');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(...zones), (ms, tz) => {
        const intl = new Intl.DateTimeFormat('sv-SE', {
          timeZone: tz,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }).format(new Date(ms));
        return formatGoTime(ms * 1000, plain, tz) === intl;
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (s) => grindTime(s, 'UTC', 2024) === undefined || Number.isFinite(grindTime(s, 'UTC', 2024))));
  });

  it.each([
    ['time', 'ModuleError: time: missing source and target, e.g. time -oformat "Mon Jan _2 15:04:05 2006 MST" TIMESTAMP formattedTS'],
    ['time tsString', 'ModuleError: time: missing target enumerated value name after tsString, e.g. time tsString extractedTS'],
    ['time -tz Mars/Olympus a b', 'ModuleError: time: unknown time zone "Mars/Olympus" (use a tz database name such as America/Denver, UTC or Atlantic/Reykjavik)'],
    ['time -oformat "" TIMESTAMP b', 'ModuleError: time: a format must not be empty'],
    ['time a DATA', 'ModuleError: time: the target cannot be DATA'],
    ['time a b c', 'ModuleError: time: unexpected argument "c"'],
    ['time -format x a b', 'ModuleError: time: unknown flag -format'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual(`${CHICAGO} | count by foo`, linesToEntries(['a', 'b', 'c']));
  });
});
