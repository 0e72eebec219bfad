import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PoolClient } from 'pg';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BLOCK_MAX_ENTRIES, BlockEntry, BlockReader, packBlocks, SMALL_BLOCK_BYTES, SMALL_BLOCK_ENTRIES } from './block-codec';
import { compressedRows, copyBlocks } from './copy-binary';
import { Indexer, IndexerPools } from './indexer-pools';

/** What makes a block small (see SMALL_BLOCK_BYTES). */
const SMALL = `raw < ${SMALL_BLOCK_BYTES} AND n < ${SMALL_BLOCK_ENTRIES}`;
/** Groups (partition, tag, shard) with more than one small block: what a round may merge. */
const GROUPS_SQL = `
  SELECT tableoid::regclass::text AS part, tag, shard FROM block
   WHERE ${SMALL}
   GROUP BY 1, 2, 3 HAVING count(*) > 1
   ORDER BY 1 DESC LIMIT 64`;
/**
 * At most this many small blocks (and this much data) are merged in one transaction: a merge
 * holds their entries in memory and decodes them on the event loop, a few milliseconds at a time.
 */
const MAX_BLOCKS_PER_MERGE = 256;
const MAX_BYTES_PER_MERGE = 8 << 20;
const MAX_ENTRIES_PER_MERGE = 4 * BLOCK_MAX_ENTRIES;
/** Serialises compactions of one group across web servers sharing an indexer (pg_try_advisory_xact_lock). */
const COMPACTION_LOCK_KEY = 7_955_002;

export interface CompactionRound {
  /** blocks merged away, and blocks written in their place */
  merged: number;
  written: number;
}

/**
 * Merges the small blocks that small ingest batches make (HEC sends a few events a request) into
 * full ones, in the background: per day partition, tag and shard, the small blocks are read,
 * their entries packed anew and written, and the old blocks deleted, in one transaction. A search
 * sees either the old blocks or the new ones (its snapshot), never both or neither; a crash rolls
 * the merge back; searches and ingest never wait for it (no lock but the rows it deletes, which
 * nothing else updates).
 */
@Injectable()
export class BlockCompaction implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BlockCompaction.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<CompactionRound>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pools: IndexerPools,
  ) {}

  onModuleInit(): void {
    if (!this.config.compactionIntervalMs) return;
    this.timer = setInterval(() => void this.compactNow().catch((err) => this.logger.warn({ err }, 'compaction failed')), this.config.compactionIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One round over every indexer (one at a time; a round already running is joined). */
  compactNow(): Promise<CompactionRound> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<CompactionRound> {
    const total: CompactionRound = { merged: 0, written: 0 };
    for (const ix of this.pools.all) {
      if (!ix.ready) continue;
      let c: PoolClient;
      try {
        c = await ix.pool.connect();
      } catch {
        continue; // unreachable now: the next round tries again
      }
      try {
        const groups = (await c.query<{ part: string; tag: number; shard: number }>(GROUPS_SQL)).rows;
        for (const g of groups) {
          const r = await this.mergeGroup(ix, c, g.part, g.tag, g.shard);
          total.merged += r.merged;
          total.written += r.written;
        }
      } finally {
        c.release();
      }
    }
    if (total.merged) this.logger.debug?.(`compaction merged ${total.merged} blocks into ${total.written}`);
    return total;
  }

  private async mergeGroup(ix: Indexer, c: PoolClient, part: string, tag: number, shard: number): Promise<CompactionRound> {
    await c.query('BEGIN');
    try {
      const locked = (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS ok', [COMPACTION_LOCK_KEY, `${part}:${tag}:${shard}`])).rows[0].ok;
      if (!locked) {
        await c.query('ROLLBACK');
        return { merged: 0, written: 0 };
      }
      const rows = (
        await c.query<{ id: string; raw: number; n: number; body: Buffer }>(
          `SELECT id, raw, n, body FROM ${part} WHERE tag = $1 AND shard = $2 AND ${SMALL} ORDER BY id LIMIT ${MAX_BLOCKS_PER_MERGE} FOR UPDATE`,
          [tag, shard],
        )
      ).rows;
      const ids: string[] = [];
      const entries: BlockEntry[] = [];
      let bytes = 0;
      for (const r of rows) {
        if (ids.length > 1 && (bytes + r.raw > MAX_BYTES_PER_MERGE || entries.length + r.n > MAX_ENTRIES_PER_MERGE)) break;
        const block = BlockReader.decompress(r.body);
        for (let i = 0; i < block.n; i++) entries.push(block.entry(i));
        ids.push(r.id);
        bytes += r.raw;
      }
      if (ids.length < 2) {
        await c.query('ROLLBACK');
        return { merged: 0, written: 0 };
      }
      const blocks = await compressedRows(packBlocks(tag, entries), () => shard);
      await copyBlocks(c, blocks);
      const deleted = (await c.query(`DELETE FROM ${part} WHERE id = ANY($1::int8[])`, [ids])).rowCount;
      if (deleted !== ids.length) throw new Error(`compaction of ${part} on ${ix.name}: deleted ${deleted} of ${ids.length} blocks`);
      await c.query('COMMIT');
      return { merged: ids.length, written: blocks.length };
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
}
