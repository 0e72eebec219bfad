import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { pgPoolOptions } from '../database/data-source';
import { BLOCK_SCHEMA_SQL } from './indexer.schema';
import { convertLegacyLayout } from './legacy-conversion';

export interface Indexer {
  index: number;
  url: string;
  /** address shown to people (no credentials) */
  name: string;
  pool: Pool;
  ready: boolean;
  /** UTC days whose partition is known to exist */
  days: Set<number>;
}

function displayName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'indexer';
  }
}

/** One `pg.Pool` per indexer database, with the block schema set up (idempotently, converting an older layout) at start. */
@Injectable()
export class IndexerPools implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IndexerPools.name);
  readonly all: Indexer[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() ds: DataSource,
  ) {
    const main = (config as AppConfig & { databaseUrl?: string }).databaseUrl ?? (ds.options as { url?: string }).url;
    const urls = config.indexerUrls.length ? config.indexerUrls : main ? [main] : [];
    if (!urls.length) throw new Error('no indexer database configured');
    this.all = urls.map((url, index) => ({
      index,
      url,
      name: displayName(url),
      pool: new Pool({ connectionString: url, ...pgPoolOptions({ ...config, dbPoolSize: Math.max(2, Math.ceil(config.dbPoolSize / 2)) }) }),
      ready: false,
      days: new Set<number>(),
    }));
    for (const ix of this.all) {
      ix.pool.on('error', (err) => this.logger.warn({ err }, `indexer ${ix.name}: idle client error`));
      // pg-pool listens for errors only while a client is idle. A checked-out client between two
      // queries (a scan's snapshot, a compaction) that loses its server (PostgreSQL stopped:
      // 57P01) emits 'error' with no listener, which would end the process. The next query on it
      // fails on its own, and release() discards a client that is no longer queryable.
      ix.pool.on('connect', (client) => client.on('error', (err) => this.logger.debug?.(`indexer ${ix.name}: client error: ${err.message}`)));
    }
  }

  async onModuleInit(): Promise<void> {
    await Promise.all(this.all.map((ix) => this.setup(ix).catch((err) => this.logger.warn({ err }, `indexer ${ix.name} is not available yet`))));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.all.map((ix) => ix.pool.end().catch(() => undefined)));
  }

  private async setup(ix: Indexer): Promise<void> {
    const c = await ix.pool.connect();
    try {
      await c.query('SELECT pg_advisory_lock($1)', [7_955_000]);
      try {
        for (const sql of BLOCK_SCHEMA_SQL) await c.query(sql);
        await convertLegacyLayout(c, this.logger, ix.name);
      } finally {
        await c.query('SELECT pg_advisory_unlock($1)', [7_955_000]);
      }
      ix.ready = true;
    } finally {
      c.release();
    }
  }

  /** The indexer, set up; 503 when it cannot be reached. */
  async ensureReady(ix: Indexer): Promise<Indexer> {
    if (ix.ready) return ix;
    try {
      await this.setup(ix);
      return ix;
    } catch (err) {
      this.logger.warn({ err }, `indexer ${ix.name} is unavailable`);
      throw refusal('INDEXER_UNAVAILABLE', ix.name);
    }
  }

  async connect(ix: Indexer): Promise<PoolClient> {
    await this.ensureReady(ix);
    try {
      return await ix.pool.connect();
    } catch (err) {
      this.logger.warn({ err }, `indexer ${ix.name} is unavailable`);
      throw refusal('INDEXER_UNAVAILABLE', ix.name);
    }
  }

  /** Connection string and pool settings a worker thread needs to open its own client. */
  clientConfig(ix: Indexer): { connectionString: string; statementTimeoutMs: number; connectTimeoutMs: number } {
    return { connectionString: ix.url, statementTimeoutMs: this.config.dbStatementTimeoutMs, connectTimeoutMs: this.config.dbConnectTimeoutMs };
  }
}
