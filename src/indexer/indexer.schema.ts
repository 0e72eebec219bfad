/**
 * Storage schema of an indexer database: `block` (see block-codec.ts), partitioned by UTC day of
 * its oldest entry (a block never spans two days), its body stored as it is (STORAGE EXTERNAL:
 * out of line, without PostgreSQL's own compression; the service compressed it already).
 */

/** Idempotent: run at start on every indexer (PostgreSQL 16 or later: STORAGE in CREATE TABLE). */
export const BLOCK_SCHEMA_SQL = [
  `CREATE SEQUENCE IF NOT EXISTS block_id_seq`,
  `CREATE TABLE IF NOT EXISTS block (
     tag smallint NOT NULL,
     lo timestamptz NOT NULL,
     hi timestamptz NOT NULL,
     n integer NOT NULL,
     raw integer NOT NULL,
     shard smallint NOT NULL,
     id bigint NOT NULL DEFAULT nextval('block_id_seq'),
     body bytea STORAGE EXTERNAL NOT NULL
   ) PARTITION BY RANGE (lo)`,
  `CREATE INDEX IF NOT EXISTS block_tag_hi ON block (tag, hi)`,
];

/** The block columns a COPY fills (id from its sequence). */
export const BLOCK_COPY_COLUMNS = ['tag', 'lo', 'hi', 'n', 'raw', 'shard', 'body'] as const;

/** Partitions of the layout before blocks (one row per entry): converted at start (legacy-conversion.ts). */
export const LEGACY_PARENT = 'entry';
export const LEGACY_PREFIX = 'entry_p';

export const PARTITION_PREFIX = 'block_p';
const DAY_MS = 86_400_000;

/** UTC day number (days since the epoch) of epoch microseconds. */
export const dayOfMicros = (us: number): number => Math.floor(us / 1000 / DAY_MS);

/** `block_p20261122` for a UTC day number (`entry_p...` with the legacy prefix). */
export function partitionName(day: number, prefix = PARTITION_PREFIX): string {
  return prefix + new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** UTC day number of a partition name, or undefined for a table that is not one of ours. */
export function partitionDay(name: string, prefix = PARTITION_PREFIX): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(name.slice(prefix.length));
  if (!m) return undefined;
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

/**
 * Midnight UTC of a day as a PostgreSQL timestamptz literal. Not toISOString(): the day after
 * 9999-12-31 (the upper bound of the last accepted day) is `+010000-01-01...` there, which
 * PostgreSQL refuses; `10000-01-01 00:00:00+00` it accepts.
 */
export function dayStartLiteral(day: number): string {
  return timestampLiteral(day * DAY_MS * 1000);
}

/** Epoch µs as a PostgreSQL timestamptz literal, to the microsecond (see dayStartLiteral for why not toISOString). */
export function timestampLiteral(us: number): string {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const frac = String((ms - Math.floor(ms / 1000) * 1000) * 1000 + (us - ms * 1000)).padStart(6, '0');
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${frac}+00`;
}

/** Creates a day partition if missing (serialised by an advisory lock against concurrent creators). */
export function createPartitionSql(day: number): string {
  return `CREATE TABLE IF NOT EXISTS ${partitionName(day)} PARTITION OF block FOR VALUES FROM ('${dayStartLiteral(day)}') TO ('${dayStartLiteral(day + 1)}')`;
}

export const PARTITION_LOCK_KEY = 7_955_001;

/** Names of the existing day partitions of a parent table (`block`, or the legacy `entry`). */
export const listPartitionsSql = (parent = 'block'): string => `
  SELECT c.relname AS name FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
  WHERE p.relname = '${parent}' AND p.relnamespace = current_schema()::regnamespace ORDER BY 1`;
export const LIST_PARTITIONS_SQL = listPartitionsSql();

export const DAY_MS_CONST = DAY_MS;

/**
 * The UTC days an indexer keeps: from `retentionDays` ago (older partitions are dropped) to
 * `futureDays` ahead (later ones could never be dropped by retention). Ingest refuses entries
 * outside it; retention drops partitions outside it. One window for both.
 */
export function keptDays(nowMs: number, retentionDays: number, futureDays: number): { first: number; last: number } {
  return { first: Math.floor((nowMs - retentionDays * DAY_MS) / DAY_MS), last: Math.floor((nowMs + futureDays * DAY_MS) / DAY_MS) };
}
