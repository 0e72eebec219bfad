import fc from 'fast-check';
import { hecTime, parseRfc3339, rfc3339FromAscii, timestampInLine } from './timestamps';

const us = (iso: string) => Date.parse(iso) * 1000;
const now = new Date('2026-06-15T12:00:00Z');

describe('ingest timestamps', () => {
  it('parses RFC3339 with nanoseconds and zones', () => {
    expect(parseRfc3339('2018-02-12T11:06:44.215431364-07:00')).toBe(us('2018-02-12T18:06:44.215Z') + 431);
    expect(parseRfc3339('2024-01-02T03:04:05Z')).toBe(us('2024-01-02T03:04:05Z'));
    expect(parseRfc3339('2024-01-02 03:04:05')).toBe(us('2024-01-02T03:04:05Z'));
    expect(parseRfc3339('2024-02-31T00:00:00Z')).toBeNull();
    expect(parseRfc3339('yesterday')).toBeNull();
    expect(parseRfc3339('1969-12-31T23:59:59Z')).toBeNull();
  });

  it('finds timestamps inside lines', () => {
    expect(timestampInLine('host 2024-01-02T03:04:05.5+01:00 hello', false, now)).toBe(us('2024-01-02T02:04:05.500Z'));
    expect(timestampInLine('1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /"', false, now)).toBe(us('2000-10-10T20:55:36Z'));
    expect(timestampInLine('Mar  3 04:05:06 host sshd[1]: hi', false, now)).toBe(us('2026-03-03T04:05:06Z'));
    expect(timestampInLine('Dec 24 04:05:06 host x', false, now)).toBe(us('2025-12-24T04:05:06Z'));
    expect(timestampInLine('1700000000.25 event', false, now)).toBe(1_700_000_000_250_000);
    expect(timestampInLine('no time here 12345', false, now)).toBeNull();
    expect(timestampInLine('[10/Oct/2000:13:55:36 +0000] then 2024-01-02T03:04:05Z', false, now)).toBe(us('2000-10-10T13:55:36Z'));
  });

  it('reads HEC times in s, ms, µs and RFC3339', () => {
    expect(hecTime(1700000000.5)).toBe(1_700_000_000_500_000);
    expect(hecTime('1700000000')).toBe(1_700_000_000_000_000);
    expect(hecTime(1700000000123)).toBe(1_700_000_000_123_000);
    expect(hecTime(1700000000123456)).toBe(1_700_000_000_123_456);
    expect(hecTime('2024-01-02T03:04:05Z')).toBe(us('2024-01-02T03:04:05Z'));
    expect(hecTime('soon')).toBeNull();
    expect(hecTime(-5)).toBeNull();
    expect(hecTime({})).toBeNull();
  });

  it('reads RFC3339 from bytes exactly as parseRfc3339 does, or leaves it to it (property)', () => {
    const read = (text: string) => {
      const b = Buffer.from(`"${text}"`);
      return rfc3339FromAscii(b, 1, b.length - 1);
    };
    const two = (n: number) => String(n).padStart(2, '0');
    const text = fc.oneof(
      fc.date({ min: new Date(Date.UTC(1960, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), noInvalidDate: true }).map((d) => d.toISOString()),
      fc
        .tuple(
          fc.integer({ min: 0, max: 10000 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
          fc.integer({ min: 0, max: 25 }),
          fc.integer({ min: 0, max: 61 }),
          fc.integer({ min: 0, max: 61 }),
          fc.constantFrom('', '.', '.5', ',25', '.123456', '.1234567', '.123456789', '.1234567891'),
          fc.constantFrom('', 'Z', 'z', '+00:00', '-00:00', '+14:00', '-0930', '+99:99', '+1:00', '+0100x', 'Z ', ' ', '+01:0'),
          fc.constantFrom('T', 't', ' ', '_'),
        )
        .map(([y, mo, d, h, mi, s, frac, zone, sep]) => `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}${sep}${two(h)}:${two(mi)}:${two(s)}${frac}${zone}`),
      fc.string({ maxLength: 30 }),
    );
    let read_ = 0;
    fc.assert(
      fc.property(text, (t) => {
        const us = read(t);
        if (us >= 0) {
          read_++;
          expect(us).toBe(parseRfc3339(t));
        }
      }),
      { numRuns: 20000 },
    );
    expect(read_).toBeGreaterThan(5000);
    // Every day of the range, against the Date arithmetic of parseRfc3339.
    for (let day = 0; day < 2_932_897; day += 997) {
      const iso = new Date(day * 86_400_000 + 45_296_789).toISOString();
      expect(read(iso)).toBe(parseRfc3339(iso));
    }
    for (const t of ['2024-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00Z']) expect(read(t)).toBe(parseRfc3339(t));
    for (const t of ['2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '1970-01-01T00:00:00+00:01', '2016-12-31T23:59:60Z', ' 2024-01-01T00:00:00Z']) expect(read(t)).toBe(-1);
  });
});
