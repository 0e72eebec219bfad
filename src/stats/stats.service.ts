import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Indexer, IndexerPools } from '../indexer/indexer-pools';
import { SingleFlight } from '../common/concurrency/single-flight';
import { isLocalHost, localSysInfo, SysInfo } from './host-info';
import { IngestMeter, IngestSnapshot } from './ingest-meter';

export const WEBSERVER = 'webserver';
/** An indexer that does not answer within this is reported as down (the endpoint still answers). */
const PING_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]).finally(() => clearTimeout(timer));
}

export interface PartitionStats {
  ID: string;
  Data: number;
  Entries: number;
  /** `Entries` is PostgreSQL's estimate (a large partition, exact counts not asked for). */
  Estimated: boolean;
  Path: string;
  Cold: boolean;
}

/** Partitions up to this size are counted exactly (cheap); larger ones use the catalog's estimate. */
const EXACT_COUNT_BELOW_BYTES = 16 * 1024 * 1024;
/** Shared results of the periodic stats are reused this long (every stats websocket pushes every 2 s). */
const SHARED_TTL_MS = 1500;

const PARTITION_SIZES_SQL = `
  SELECT c.relname AS name, c.reltuples::float8 AS estimate, pg_total_relation_size(c.oid)::int8 AS size
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'entry'::regclass
   ORDER BY c.relname`;

export interface IndexerStats {
  UUID: string;
  IndexStats: Array<{ Name: string; Stats: PartitionStats[] }>;
  Error?: string;
}

export type IngestStats = IngestSnapshot & { QuotaUsed: number; QuotaMax: number; Ingesters: unknown[]; Missing: unknown[]; Error?: string };

/** Status maps keyed by component: every indexer by address, plus `webserver` (product-notes §3.2). */
@Injectable()
export class StatsService {
  /** What every stats websocket shows: one computation at a time, shared by all subscribers. */
  readonly shared = {
    ping: new SingleFlight(() => this.ping(), SHARED_TTL_MS),
    idxStats: new SingleFlight(() => this.idxStats(false), SHARED_TTL_MS),
  };
  private readonly exactIdxStats = new SingleFlight(() => this.idxStats(true), 0);

  constructor(
    private readonly pools: IndexerPools,
    private readonly meter: IngestMeter,
  ) {}

  /** `GET /api/stats/idxStats`: shared estimates, or (`exact`) one exact count at a time. */
  idxStatsFor(exact: boolean): Promise<Record<string, IndexerStats>> {
    return exact ? this.exactIdxStats.get() : this.shared.idxStats.get();
  }

  private query<T>(ix: Indexer, sql: string): Promise<T[]> {
    return withTimeout(ix.pool.query(sql), PING_TIMEOUT_MS * 5).then((r) => r.rows as T[]);
  }

  async ping(): Promise<Record<string, string>> {
    const out: Record<string, string> = { [WEBSERVER]: 'OK' };
    await Promise.all(
      this.pools.all.map(async (ix) => {
        out[ix.name] = await withTimeout(ix.pool.query('SELECT 1'), PING_TIMEOUT_MS).then(
          () => 'OK',
          () => 'Disconnected',
        );
      }),
    );
    return out;
  }

  async sysDesc(): Promise<Record<string, SysInfo>> {
    const local = localSysInfo();
    const out: Record<string, SysInfo> = { [WEBSERVER]: local };
    await Promise.all(
      this.pools.all.map(async (ix) => {
        try {
          const [{ v }] = await withTimeout(this.query<{ v: string }>(ix, "SELECT current_setting('server_version') AS v"), PING_TIMEOUT_MS);
          const version = `PostgreSQL ${v}`;
          out[ix.name] = isLocalHost(ix.url)
            ? { ...local, SystemVersion: `${version} on ${local.SystemVersion}` }
            : { SystemVersion: version, Error: 'host details of a remote indexer are not available' };
        } catch {
          out[ix.name] = { Error: 'indexer is not reachable' };
        }
      }),
    );
    return out;
  }

  /**
   * Day partitions per indexer with their size and entry count: sizes and estimates come from
   * the catalog in one query; only small partitions (or all, with `exact`) are counted, one
   * after another, so stats never hold more than one connection of an indexer's pool.
   */
  private async idxStats(exact: boolean): Promise<Record<string, IndexerStats>> {
    const out: Record<string, IndexerStats> = {};
    await Promise.all(
      this.pools.all.map(async (ix) => {
        const UUID = uuidOf(ix.name);
        try {
          const parts = await this.query<{ name: string; estimate: number; size: string }>(ix, PARTITION_SIZES_SQL);
          const Stats: PartitionStats[] = [];
          for (const p of parts) {
            const size = Number(p.size);
            const count = exact || p.estimate < 0 || size < EXACT_COUNT_BELOW_BYTES;
            const entries = count ? Number((await this.query<{ n: string }>(ix, `SELECT count(*) AS n FROM ${p.name}`))[0].n) : Math.round(p.estimate);
            Stats.push({ ID: p.name, Data: size, Entries: entries, Estimated: !count, Path: p.name, Cold: false });
          }
          out[ix.name] = { UUID, IndexStats: [{ Name: 'default', Stats }] };
        } catch {
          out[ix.name] = { UUID, IndexStats: [], Error: 'indexer is not reachable' };
        }
      }),
    );
    return out;
  }

  igstStats(): Record<string, IngestStats> {
    const out: Record<string, IngestStats> = {};
    for (const ix of this.pools.all) {
      out[ix.name] = { QuotaUsed: 0, QuotaMax: 0, ...this.meter.snapshot(ix.name), Ingesters: [], Missing: [] };
    }
    return out;
  }
}

/** A stable UUID-shaped identifier for an indexer, derived from its address. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
