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

/** A day partition: its size, and its entry count (exact, or PostgreSQL's estimate). */
export interface PartitionCount {
  name: string;
  size: number;
  entries: number;
  estimated: boolean;
}

/** Partitions up to this size are counted exactly (cheap); larger ones use the catalog's estimate. */
const EXACT_COUNT_BELOW_BYTES = 16 * 1024 * 1024;
/** A statistics query that takes longer fails (the endpoint still answers, naming the indexer unreachable). */
const QUERY_TIMEOUT_MS = 10_000;

const PARTITION_SIZES_SQL = `
  SELECT c.relname AS name, c.reltuples::float8 AS estimate, pg_total_relation_size(c.oid)::int8 AS size
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'entry'::regclass
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

  /**
   * Day partitions with their size and entry count: sizes and estimates come from the catalog in
   * one query; only small partitions (or all, with `exact`) are counted, one after another, so
   * stats never hold more than one connection of an indexer's pool. Rejects when unreachable.
   */
  async partitions(i: IndexerInfo, exact: boolean): Promise<PartitionCount[]> {
    const ix = this.pools.all[i.index];
    const parts = await this.query<{ name: string; estimate: number; size: string }>(ix, PARTITION_SIZES_SQL);
    const out: PartitionCount[] = [];
    for (const p of parts) {
      const size = Number(p.size);
      const count = exact || p.estimate < 0 || size < EXACT_COUNT_BELOW_BYTES;
      const entries = count ? Number((await this.query<{ n: string }>(ix, `SELECT count(*) AS n FROM ${p.name}`))[0].n) : Math.round(p.estimate);
      out.push({ name: p.name, size, entries, estimated: !count });
    }
    return out;
  }

  /** Entries and bytes this web server stored in the indexer since start. */
  ingested(i: IndexerInfo): IngestSnapshot {
    return this.meter.snapshot(i.name);
  }
}
