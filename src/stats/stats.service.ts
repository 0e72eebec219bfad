import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { SingleFlight } from '../common/concurrency/single-flight';
import { IndexerStatsQueries } from '../indexer/indexer-stats.queries';
import { IngestSnapshot } from '../indexer/ingest-meter';
import { localSysInfo, SysInfo } from './host-info';

export const WEBSERVER = 'webserver';
/** An indexer that does not answer within this is reported as down (the endpoint still answers). */
const PING_TIMEOUT_MS = 2000;
/** Shared results of the periodic stats are reused this long (every stats websocket pushes every 2 s). */
const SHARED_TTL_MS = 1500;

export interface PartitionStats {
  ID: string;
  /** bytes stored (compressed blocks, their rows and index) */
  Data: number;
  Entries: number;
  /** blocks holding the entries (a compaction merges small ones) */
  Blocks: number;
  /** bytes of the entries' data before compression */
  RawBytes: number;
  /** always false: counts come from the block rows, exact and cheap (kept for clients of the row layout) */
  Estimated: boolean;
  Path: string;
  Cold: boolean;
}

export interface IndexerStats {
  UUID: string;
  IndexStats: Array<{ Name: string; Stats: PartitionStats[] }>;
  Error?: string;
}

export type IngestStats = IngestSnapshot & { QuotaUsed: number; QuotaMax: number; Ingesters: unknown[]; Missing: unknown[]; Error?: string };

/**
 * Status maps keyed by component: every indexer by address, plus `webserver` (product-notes
 * §3.2). The figures come from the indexer (IndexerStatsQueries); this service shapes them.
 */
@Injectable()
export class StatsService {
  /** What every stats websocket shows: one computation at a time, shared by all subscribers. */
  readonly shared = {
    ping: new SingleFlight(() => this.ping(), SHARED_TTL_MS),
    idxStats: new SingleFlight(() => this.idxStats(), SHARED_TTL_MS),
  };
  private readonly freshIdxStats = new SingleFlight(() => this.idxStats(), 0);

  constructor(private readonly indexers: IndexerStatsQueries) {}

  /** `GET /api/stats/idxStats`: the shared figures (at most SHARED_TTL_MS old), or (`exact`) fresh ones, one computation at a time. */
  idxStatsFor(exact: boolean): Promise<Record<string, IndexerStats>> {
    return exact ? this.freshIdxStats.get() : this.shared.idxStats.get();
  }

  async ping(): Promise<Record<string, string>> {
    const out: Record<string, string> = { [WEBSERVER]: 'OK' };
    await Promise.all(
      this.indexers.list().map(async (ix) => {
        out[ix.name] = (await this.indexers.reachable(ix, PING_TIMEOUT_MS)) ? 'OK' : 'Disconnected';
      }),
    );
    return out;
  }

  async sysDesc(): Promise<Record<string, SysInfo>> {
    const local = localSysInfo();
    const out: Record<string, SysInfo> = { [WEBSERVER]: local };
    await Promise.all(
      this.indexers.list().map(async (ix) => {
        try {
          const version = await this.indexers.serverVersion(ix, PING_TIMEOUT_MS);
          out[ix.name] = ix.local
            ? { ...local, SystemVersion: `${version} on ${local.SystemVersion}` }
            : { SystemVersion: version, Error: 'host details of a remote indexer are not available' };
        } catch {
          out[ix.name] = { Error: 'indexer is not reachable' };
        }
      }),
    );
    return out;
  }

  /** Day partitions per indexer with their size, blocks, entries and raw bytes (see IndexerStatsQueries.partitions). */
  private async idxStats(): Promise<Record<string, IndexerStats>> {
    const out: Record<string, IndexerStats> = {};
    await Promise.all(
      this.indexers.list().map(async (ix) => {
        const UUID = uuidOf(ix.name);
        try {
          const Stats = (await this.indexers.partitions(ix)).map((p): PartitionStats => ({
            ID: p.name,
            Data: p.size,
            Entries: p.entries,
            Blocks: p.blocks,
            RawBytes: p.raw,
            Estimated: false,
            Path: p.name,
            Cold: false,
          }));
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
    for (const ix of this.indexers.list()) {
      out[ix.name] = { QuotaUsed: 0, QuotaMax: 0, ...this.indexers.ingested(ix), Ingesters: [], Missing: [] };
    }
    return out;
  }
}

/** A stable UUID-shaped identifier for an indexer, derived from its address. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
