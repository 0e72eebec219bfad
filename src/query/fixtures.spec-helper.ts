/** Small hand-checked data set for the query library's tests. */
import { parseCsvTable } from './lookup-table';
import { Entry } from './types';

export const T0 = Date.UTC(2024, 0, 1) * 1000; // epoch microseconds
export const MIN = 60_000_000;
export const SEC = 1_000_000;

export const TAGS: Record<number, string> = { 0: 'default', 1: 'app', 2: 'syslog', 3: 'csv' };

function entry(ts: number, tag: number, src: string, data: string): Entry {
  return { ts, tag, src, data: Buffer.from(data), evs: new Map() };
}

/** tag app: JSON documents (one malformed), one per minute from T0. */
export const APP: Entry[] = [
  entry(T0, 1, '10.0.0.1', '{"user":"alice","status":200,"bytes":100,"tags":["a","b"],"meta":{"host":"h1"}}'),
  entry(T0 + 1 * MIN, 1, '10.0.0.2', '{"user":"bob","status":404,"bytes":200,"meta":{"host":"h2"}}'),
  entry(T0 + 2 * MIN, 1, '10.0.0.1', '{"user":"alice","status":500,"bytes":300,"meta":{"host":"h1"}}'),
  entry(T0 + 3 * MIN, 1, '10.0.0.3', '{"user":"carol","status":200,"bytes":400,"meta":{"host":"h2"}}'),
  entry(T0 + 4 * MIN, 1, '10.0.0.2', '{"user":"bob","status":200,"bytes":500,"meta":{"host":"h1"}}'),
  entry(T0 + 5 * MIN, 1, '10.0.0.1', '{"user":"alice","status":200,"bytes":600}'),
  entry(T0 + 6 * MIN, 1, '10.0.0.3', 'malformed {'),
];

/** tag syslog: key=value lines. */
export const SYSLOG: Entry[] = [
  entry(T0 + 30 * SEC, 2, '10.0.1.1', 'level=info user=alice msg="login ok"'),
  entry(T0 + 90 * SEC, 2, '10.0.1.1', 'level=critical user=bob msg="disk full"'),
  entry(T0 + 150 * SEC, 2, '10.0.1.2', 'level=warn user=carol'),
  entry(T0 + 210 * SEC, 2, '10.0.1.2', 'level=critical user=alice msg="cpu hot"'),
];

/** tag csv: comma separated lines. */
export const CSV: Entry[] = [entry(T0 + 10 * SEC, 3, '10.0.2.1', 'alice,GET,/index.html,200'), entry(T0 + 20 * SEC, 3, '10.0.2.1', 'bob,POST,/login,403')];

export const ALL: Entry[] = [...APP, ...SYSLOG, ...CSV];

/** Lookup tables (`lookup -r users ...`); carol is not in `users`. */
export const USERS_CSV = 'user,team,level\nalice,red,1\nbob,blue,2\n';
export const LOOKUPS = new Map([['users', parseCsvTable(Buffer.from(USERS_CSV))]]);

export const RANGE = {
  start: new Date(T0 / 1000 - 3600_000),
  end: new Date(T0 / 1000 + 3600_000),
  now: new Date(T0 / 1000 + 6.5 * 60_000),
  tagNames: TAGS,
  lookups: LOOKUPS,
};
