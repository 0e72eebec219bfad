import { Injectable } from '@nestjs/common';
import { Indexer, IndexerPools } from './indexer-pools';
import { IngestMeter, IngestSnapshot } from './ingest-meter';

/** An indexer as status pages name it (its address without credentials). */
export interface IndexerInfo {
  index: number;
  name: string;
  /** The indexer database runs on this machine (its host details are this machine's). */
  local: boolean;
}

/** A day partition: its stored size, its blocks, and the entries and raw bytes they hold. */
export interface PartitionCount {
  name: string;
  /** bytes on disk (heap, bodies and index) */
  size: number;
  entries: number;
  blocks: number;
  /** bytes of the entries' data before compression */
  raw: number;
}

/** A statistics query that takes longer fails (the endpoint still answers, naming the indexer unreachable). */
const QUERY_TIMEOUT_MS = 10_000;

/** Every count comes from the block rows (tag, time range, entry count, raw size): no body is read. */
const PARTITIONS_SQL = `
  SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS size,
         coalesce(b.blocks, 0)::int AS blocks, coalesce(b.entries, 0)::float8 AS entries, coalesce(b.raw, 0)::float8 AS raw
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    LEFT JOIN (SELECT tableoid, count(*) AS blocks, sum(n) AS entries, sum(raw) AS raw FROM block GROUP BY tableoid) b ON b.tableoid = c.oid
   WHERE i.inhparent = 'block'::regclass
   ORDER BY c.relname`;

/** Rejects when `p` takes longer than `ms` (the query itself runs on). */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]).finally(() => clearTimeout(timer));
}

export function isLocalHost(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1' || host === '';
  } catch {
    return false;
  }
}

/**
 * What the stats APIs read from the indexers: reachability, server version, partition sizes and
 * counts, and the ingest counters kept since start. The stats feature shapes these into the
 * product's status maps; only the indexer touches its databases.
 */
@Injectable()
export class IndexerStatsQueries {
  constructor(
    private readonly pools: IndexerPools,
    private readonly meter: IngestMeter,
  ) {}

  /** Every indexer, in configuration order. */
  list(): IndexerInfo[] {
    return this.pools.all.map((ix) => ({ index: ix.index, name: ix.name, local: isLocalHost(ix.url) }));
  }

  private query<T>(ix: Indexer, sql: string, timeoutMs = QUERY_TIMEOUT_MS): Promise<T[]> {
    return withTimeout(ix.pool.query(sql), timeoutMs).then((r) => r.rows as T[]);
  }

  /** The indexer answers a trivial query within `timeoutMs`. */
  reachable(i: IndexerInfo, timeoutMs: number): Promise<boolean> {
    return this.query(this.pools.all[i.index], 'SELECT 1', timeoutMs).then(
      () => true,
      () => false,
    );
  }

  /** `PostgreSQL <version>` of the indexer database; rejects when it does not answer within `timeoutMs`. */
  async serverVersion(i: IndexerInfo, timeoutMs: number): Promise<string> {
    const [{ v }] = await this.query<{ v: string }>(this.pools.all[i.index], "SELECT current_setting('server_version') AS v", timeoutMs);
    return `PostgreSQL ${v}`;
  }

  /** Day partitions with their stored size, blocks, entries and raw bytes (exact, from the block rows). Rejects when unreachable. */
  partitions(i: IndexerInfo): Promise<PartitionCount[]> {
    return this.query<PartitionCount>(this.pools.all[i.index], PARTITIONS_SQL);
  }

  /** Entries and bytes this web server stored in the indexer since start. */
  ingested(i: IndexerInfo): IngestSnapshot {
    return this.meter.snapshot(i.name);
  }
}
