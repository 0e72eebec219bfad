/**
 * Upgrade from the layout before blocks (table `entry`, one row per entry, day partitions
 * `entry_pYYYYMMDD`): each day partition is converted into blocks and dropped in one transaction,
 * so a crash at any point leaves every entry either in its old row or in a block, never both and
 * never neither. Runs at start on every indexer, before it serves searches or ingest.
 */
import { Logger } from '@nestjs/common';
import { PoolClient } from 'pg';
import { BLOCK_TARGET_BYTES, BlockEntry, packBlocks, SHARDS } from './block-codec';
import { compressedRows, copyBlocks } from './copy-binary';
import { createPartitionSql, LEGACY_PARENT, LEGACY_PREFIX, listPartitionsSql, partitionDay } from './indexer.schema';

/** Old rows read per FETCH. */
const ROWS_PER_FETCH = 5000;

interface LegacyRow {
  us: number;
  tag: number;
  src: string;
  data: Buffer;
  evs: string | null;
}

/** Converts one legacy day partition (inside the caller's transaction); returns its entry count. */
async function convertPartition(c: PoolClient, name: string, day: number): Promise<{ entries: number; blocks: number }> {
  await c.query(createPartitionSql(day));
  await c.query(`DECLARE legacy NO SCROLL CURSOR FOR SELECT (extract(epoch FROM ts) * 1000000)::float8 AS us, tag, src, data, evs::text AS evs FROM ${name} ORDER BY tag, ts DESC`);
  let shard = day % SHARDS;
  let entries = 0;
  let blocks = 0;
  let tag = -1;
  let group: BlockEntry[] = [];
  let groupBytes = 0;
  const pack = async () => {
    const out = await compressedRows(packBlocks(tag, group), () => shard++ % SHARDS);
    await copyBlocks(c, out);
    blocks += out.length;
    group = [];
    groupBytes = 0;
  };
  for (;;) {
    const rows = (await c.query<LegacyRow>(`FETCH ${ROWS_PER_FETCH} FROM legacy`)).rows;
    for (const r of rows) {
      if ((r.tag !== tag || groupBytes + r.data.length > BLOCK_TARGET_BYTES) && group.length) await pack();
      tag = r.tag;
      group.push({ ts: r.us, src: r.src, data: r.data, evs: r.evs });
      groupBytes += r.data.length;
      entries++;
    }
    if (rows.length < ROWS_PER_FETCH) break;
  }
  if (group.length) await pack();
  await c.query('CLOSE legacy');
  await c.query(`DROP TABLE ${name}`);
  return { entries, blocks };
}

/** Converts every legacy partition, then drops the legacy table once it is empty of partitions. */
export async function convertLegacyLayout(c: PoolClient, logger: Logger, indexer: string): Promise<void> {
  const exists = (await c.query<{ e: boolean }>(`SELECT to_regclass('${LEGACY_PARENT}') IS NOT NULL AS e`)).rows[0].e;
  if (!exists) return;
  const names = (await c.query<{ name: string }>(listPartitionsSql(LEGACY_PARENT))).rows.map((r) => r.name);
  for (const name of names) {
    const day = partitionDay(name, LEGACY_PREFIX);
    if (day === undefined) continue;
    const t0 = Date.now();
    await c.query('BEGIN');
    try {
      await c.query('SET LOCAL statement_timeout = 0'); // a large day takes as long as it takes, once
      const { entries, blocks } = await convertPartition(c, name, day);
      await c.query('COMMIT');
      logger.log(`indexer ${indexer}: converted ${name} (${entries} entries) into ${blocks} blocks in ${Date.now() - t0} ms`);
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  const left = (await c.query(listPartitionsSql(LEGACY_PARENT))).rows.length;
  if (left) logger.warn(`indexer ${indexer}: ${LEGACY_PARENT} keeps ${left} partition(s) that are not day partitions; left in place`);
  else await c.query(`DROP TABLE ${LEGACY_PARENT}`);
}
