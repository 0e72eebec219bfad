import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Indexer, IndexerPools } from '../indexer/indexer-pools';
import { LIST_PARTITIONS_SQL } from '../indexer/indexer.schema';
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
  Path: string;
  Cold: boolean;
}

export interface IndexerStats {
  UUID: string;
  IndexStats: Array<{ Name: string; Stats: PartitionStats[] }>;
  Error?: string;
}

export type IngestStats = IngestSnapshot & { QuotaUsed: number; QuotaMax: number; Ingesters: unknown[]; Missing: unknown[]; Error?: string };

/** Status maps keyed by component: every indexer by address, plus `webserver` (product-notes §3.2). */
@Injectable()
export class StatsService {
  constructor(
    private readonly pools: IndexerPools,
    private readonly meter: IngestMeter,
  ) {}

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

  async idxStats(): Promise<Record<string, IndexerStats>> {
    const out: Record<string, IndexerStats> = {};
    await Promise.all(
      this.pools.all.map(async (ix) => {
        const UUID = uuidOf(ix.name);
        try {
          const parts = (await this.query<{ name: string }>(ix, LIST_PARTITIONS_SQL)).map((r) => r.name).sort();
          const Stats = await Promise.all(
            parts.map(async (p) => {
              const [r] = await this.query<{ n: string; size: string }>(ix, `SELECT count(*) AS n, pg_total_relation_size('${p}') AS size FROM ${p}`);
              return { ID: p, Data: Number(r.size), Entries: Number(r.n), Path: p, Cold: false };
            }),
          );
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
