import { Client, Pool } from 'pg';
import { BlockReader } from '../../src/indexer/block-codec';

export interface StoredEntry {
  /** epoch µs */
  ts: number;
  tag: number;
  /** tag name */
  tagName?: string;
  src: string;
  data: Buffer;
  /** the EV pairs as stored, or null */
  evs: unknown;
}

/** Every entry an indexer database holds, read from its blocks (what tests used to SELECT from the row table). */
export async function storedEntries(db: Client | Pool): Promise<StoredEntry[]> {
  const names = new Map<number, string>(
    ((await db.query('SELECT id, name FROM tag').catch(() => ({ rows: [] }))).rows as Array<{ id: number; name: string }>).map((r) => [r.id, r.name]),
  );
  const rows = (await db.query('SELECT tag, body FROM block ORDER BY id')).rows as Array<{ tag: number; body: Buffer }>;
  return rows.flatMap((r) => {
    const b = BlockReader.decompress(r.body);
    return Array.from({ length: b.n }, (_, i) => {
      const e = b.entry(i);
      return { ts: e.ts, tag: r.tag, tagName: names.get(r.tag), src: e.src, data: e.data, evs: e.evs === null ? null : JSON.parse(e.evs) };
    });
  });
}

/** The data (UTF-8) of the stored entries whose data starts with `prefix`, sorted. */
export async function storedData(db: Client | Pool, prefix = ''): Promise<string[]> {
  return (await storedEntries(db))
    .map((e) => e.data.toString('utf8'))
    .filter((d) => d.startsWith(prefix))
    .sort();
}
