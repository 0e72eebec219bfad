import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PoolClient } from 'pg';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlockEntry, packBlocks, SHARDS } from './block-codec';
import { compressedRows, copyBlocks, CopyBlock } from './copy-binary';
import { Indexer, IndexerPools } from './indexer-pools';
import { IngestMeter } from './ingest-meter';
import { createPartitionSql, dayOfMicros, keptDays, LIST_PARTITIONS_SQL, PARTITION_LOCK_KEY, partitionDay } from './indexer.schema';
import { TagsRepository } from './tags.repository';

/** An entry ready to store: `ts` epoch µs, `tag` already a number, `evs` JSON pairs or null. */
export interface NewEntry {
  ts: number;
  tag: number;
  src: string;
  data: Buffer;
  evs: Array<[string, unknown]> | null;
}

const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Stores entries (each batch as compressed blocks in one COPY), the tag map, and retention. */
@Injectable()
export class IndexerService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IndexerService.name);
  private next = 0;
  /** shard of the next block stored */
  private shard = 0;
  /** tag name -> number, for tags known to exist (numbers never change) */
  private readonly tagCache = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pools: IndexerPools,
    private readonly tagsRepo: TagsRepository,
    private readonly meter: IngestMeter,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.applyRetention().catch((err) => this.logger.warn({ err }, 'retention failed'));
    }, RETENTION_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Every tag name, sorted. */
  async tags(): Promise<string[]> {
    return (await this.tagsRepo.all()).map((t) => t.name);
  }

  /** Tag number -> name. */
  async tagNames(): Promise<Map<number, string>> {
    return new Map((await this.tagsRepo.all()).map((t) => [t.id, t.name]));
  }

  /** The UTC days ingest accepts and retention keeps (see `keptDays`). */
  keptDays(nowMs = Date.now()): { first: number; last: number } {
    return keptDays(nowMs, this.config.retentionDays, this.config.ingestMaxFutureDays);
  }

  /**
   * Tag numbers for names (validated by the caller), created on first use for `creator`, at most
   * `MAX_NEW_TAGS_PER_REQUEST` at a time. A tag's number never changes and tags are never
   * deleted, so known numbers are cached: ingest batches of known tags skip the lookup.
   */
  async tagIds(names: string[], creator: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing: string[] = [];
    for (const name of new Set(names)) {
      const id = this.tagCache.get(name);
      if (id === undefined) missing.push(name);
      else out.set(name, id);
    }
    if (!missing.length) return out;
    if (missing.length > this.config.maxNewTagsPerRequest) {
      // Some may exist already (not cached yet): only truly new ones count.
      const known = new Set((await this.tagsRepo.all()).map((t) => t.name));
      const fresh = missing.filter((n) => !known.has(n)).length;
      if (fresh > this.config.maxNewTagsPerRequest) throw refusal('TOO_MANY_NEW_TAGS', fresh, this.config.maxNewTagsPerRequest);
    }
    const found = await this.tagsRepo.ensure(missing, creator, this.config.maxTagsPerUser);
    for (const [name, id] of found) {
      this.tagCache.set(name, id);
      out.set(name, id);
    }
    return out;
  }

  /**
   * Stores one batch atomically in one indexer (round robin; the next one when an indexer cannot be
   * reached). Resolves after commit.
   */
  async store(entries: NewEntry[]): Promise<void> {
    if (!entries.length) return;
    const n = this.pools.all.length;
    const first = this.next++ % n;
    let lastErr: unknown;
    for (let k = 0; k < n; k++) {
      const ix = this.pools.all[(first + k) % n];
      let client: PoolClient;
      try {
        client = await this.pools.connect(ix);
      } catch (err) {
        lastErr = err;
        continue;
      }
      try {
        await this.storeIn(ix, client, entries);
        this.meter.record(
          ix.name,
          entries.length,
          entries.reduce((a, e) => a + e.data.length, 0),
        );
        return;
      } finally {
        client.release();
      }
    }
    throw lastErr instanceof Error ? lastErr : refusal('NO_INDEXER_AVAILABLE');
  }

  /**
   * The batch as compressed blocks: one group per tag and UTC day, packed newest first, each block
   * compressed on libuv's thread pool, blocks spread over the shards in turn.
   */
  private async toBlocks(entries: NewEntry[]): Promise<CopyBlock[]> {
    // Batches are mostly of one tag and day: the previous entry's group is tried first.
    const groups = new Map<number, { tag: number; day: number; entries: BlockEntry[] }>();
    let g: { tag: number; day: number; entries: BlockEntry[] } | undefined;
    for (const e of entries) {
      const day = dayOfMicros(e.ts);
      if (g === undefined || g.tag !== e.tag || g.day !== day) {
        const key = day * 32768 + e.tag; // tags are 0-32767
        g = groups.get(key);
        if (!g) groups.set(key, (g = { tag: e.tag, day, entries: [] }));
      }
      // An entry without EVs is already what a block takes ({ts, src, data, evs: null}): no copy of it.
      g.entries.push(e.evs === null ? (e as Omit<NewEntry, 'evs'> & BlockEntry) : { ts: e.ts, src: e.src, data: e.data, evs: e.evs.length ? JSON.stringify(e.evs) : null });
    }
    return compressedRows(
      [...groups.values()].flatMap((group) => packBlocks(group.tag, group.entries)),
      () => this.shard++ % SHARDS,
    );
  }

  private async storeIn(ix: Indexer, c: PoolClient, entries: NewEntry[]): Promise<void> {
    const [blocks] = await Promise.all([this.toBlocks(entries), this.ensurePartitions(ix, c, entries)]);
    // One COPY statement: atomic on its own, so the batch is stored whole or not at all.
    const insert = () => copyBlocks(c, blocks);
    try {
      await insert();
    } catch (err) {
      // A partition dropped by retention (or by hand) since we cached it: recreate and retry once.
      if ((err as { code?: string }).code !== '23514') throw err;
      ix.days.clear();
      await this.ensurePartitions(ix, c, entries);
      await insert();
    }
  }

  /**
   * Creates the day partitions a batch needs, at most `MAX_NEW_PARTITIONS_PER_REQUEST`, each in
   * its own short transaction: other batches and searches wait for one `CREATE TABLE` at most,
   * and the lock table never fills up.
   */
  private async ensurePartitions(ix: Indexer, c: PoolClient, entries: NewEntry[]): Promise<void> {
    const all = new Set<number>();
    let last = NaN;
    for (const e of entries) {
      const d = dayOfMicros(e.ts);
      if (d !== last) all.add((last = d));
    }
    const days = [...all].filter((d) => !ix.days.has(d));
    if (!days.length) return;
    if (days.length > this.config.maxNewPartitionsPerRequest) {
      const existing = new Set(((await c.query(LIST_PARTITIONS_SQL)).rows as Array<{ name: string }>).map((r) => partitionDay(r.name)));
      const fresh = days.filter((d) => !existing.has(d)).length;
      if (fresh > this.config.maxNewPartitionsPerRequest) {
        throw refusal('TOO_MANY_NEW_DAYS', fresh, this.config.maxNewPartitionsPerRequest);
      }
    }
    for (const d of days) {
      await c.query('BEGIN');
      try {
        await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK_KEY]);
        await c.query(createPartitionSql(d));
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      ix.days.add(d);
    }
  }

  /**
   * Drops every day partition outside the kept days: older than `retentionDays`, or further
   * ahead than `INGEST_MAX_FUTURE_DAYS` (only an older version could have stored those). Never
   * deletes rows. Returns the names of the dropped partitions.
   */
  async applyRetention(now: Date = new Date()): Promise<string[]> {
    const kept = this.keptDays(now.getTime());
    const dropped: string[] = [];
    for (const ix of this.pools.all) {
      let c: PoolClient;
      try {
        c = await this.pools.connect(ix);
      } catch (err) {
        this.logger.warn({ err }, `retention skipped on indexer ${ix.name}`);
        continue;
      }
      try {
        const rows: Array<{ name: string }> = (await c.query(LIST_PARTITIONS_SQL)).rows;
        for (const { name } of rows) {
          const day = partitionDay(name);
          if (day === undefined || (day >= kept.first && day <= kept.last)) continue;
          await c.query('BEGIN');
          try {
            await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK_KEY]);
            await c.query(`DROP TABLE IF EXISTS ${name}`);
            await c.query('COMMIT');
          } catch (err) {
            await c.query('ROLLBACK').catch(() => undefined);
            throw err;
          }
          ix.days.delete(day);
          dropped.push(name);
        }
      } finally {
        c.release();
      }
    }
    if (dropped.length) this.logger.log(`retention dropped ${dropped.join(', ')}`);
    return dropped;
  }
}
