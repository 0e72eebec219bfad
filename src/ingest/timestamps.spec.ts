import { hecTime, parseRfc3339, timestampInLine } from './timestamps';

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
});
