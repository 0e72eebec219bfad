/** Storage schema of an indexer database: `entry`, partitioned by UTC day, BRIN on time. */

/** Idempotent: run by the migration (main database) and at start on every indexer. */
export const ENTRY_SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS entry (
     ts timestamptz NOT NULL,
     tag smallint NOT NULL,
     src text NOT NULL DEFAULT '',
     data bytea NOT NULL,
     evs jsonb NULL
   ) PARTITION BY RANGE (ts)`,
  `CREATE INDEX IF NOT EXISTS entry_ts_brin ON entry USING brin (ts)`,
];

export const PARTITION_PREFIX = 'entry_p';
const DAY_MS = 86_400_000;

/** UTC day number (days since the epoch) of epoch microseconds. */
export const dayOfMicros = (us: number): number => Math.floor(us / 1000 / DAY_MS);

/** `entry_p20261122` for a UTC day number. */
export function partitionName(day: number): string {
  return PARTITION_PREFIX + new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** UTC day number of a partition name, or undefined for a table that is not one of ours. */
export function partitionDay(name: string): number | undefined {
  const m = /^entry_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!m) return undefined;
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

/**
 * Midnight UTC of a day as a PostgreSQL timestamptz literal. Not toISOString(): the day after
 * 9999-12-31 (the upper bound of the last accepted day) is `+010000-01-01...` there, which
 * PostgreSQL refuses; `10000-01-01 00:00:00+00` it accepts.
 */
export function dayStartLiteral(day: number): string {
  const d = new Date(day * DAY_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} 00:00:00+00`;
}

/** Creates a day partition if missing (serialised by an advisory lock against concurrent creators). */
export function createPartitionSql(day: number): string {
  return `CREATE TABLE IF NOT EXISTS ${partitionName(day)} PARTITION OF entry FOR VALUES FROM ('${dayStartLiteral(day)}') TO ('${dayStartLiteral(day + 1)}')`;
}

export const PARTITION_LOCK_KEY = 7_955_001;

/** Names of the existing day partitions of `entry`. */
export const LIST_PARTITIONS_SQL = `
  SELECT c.relname AS name FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
  WHERE p.relname = 'entry' AND p.relnamespace = current_schema()::regnamespace`;

/** The day partitions of `entry` named $1..$2 (inclusive) with their current size in blocks. */
export const PARTITION_BLOCKS_SQL = `
  SELECT c.relname AS name, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS blocks FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
  WHERE p.relname = 'entry' AND p.relnamespace = current_schema()::regnamespace AND c.relname BETWEEN $1 AND $2`;

export const DAY_MS_CONST = DAY_MS;

/**
 * The UTC days an indexer keeps: from `retentionDays` ago (older partitions are dropped) to
 * `futureDays` ahead (later ones could never be dropped by retention). Ingest refuses entries
 * outside it; retention drops partitions outside it. One window for both.
 */
export function keptDays(nowMs: number, retentionDays: number, futureDays: number): { first: number; last: number } {
  return { first: Math.floor((nowMs - retentionDays * DAY_MS) / DAY_MS), last: Math.floor((nowMs + futureDays * DAY_MS) / DAY_MS) };
}
