/**
 * Worker-thread side of an indexer scan: compiles the query, streams matching rows newest first
 * through a server-side cursor (one day partition at a time), runs the distributed part of the
 * pipeline and posts surviving entries / the partial state back. Never imports Nest.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { compileQuery, Entry, EVValue, Pushdown, SerializedEV } from '../query';
import { dayOfMicros, DAY_MS_CONST, LIST_PARTITIONS_SQL, partitionDay } from './indexer.schema';
import { HostMessage, ScanJob, WorkerMessage } from './scan.protocol';

interface Row {
  us: string;
  tag: number;
  src: string;
  data: Buffer;
  evs: Array<[string, SerializedEV]> | null;
}

const toEntry = (r: Row): Entry => {
  const evs = new Map<string, EVValue>();
  for (const [k, v] of r.evs ?? []) evs.set(k, typeof v === 'object' && v !== null ? Buffer.from(v.b64, 'base64') : v);
  return { ts: Number(r.us), tag: r.tag, src: r.src, data: r.data, evs };
};

/**
 * The scan statement for the pushdown: tags, time, substring greps (bytea-safe), and newest first
 * unless the query is order-free (a sort of a large day partition spills to disk).
 */
export function buildScanSql(pushdown: Pick<Pushdown, 'grep' | 'ordered'>): { sql: string; greps: Buffer[] } {
  const conds = ['ts >= $1', 'ts < $2', 'tag = ANY($3::smallint[])'];
  const greps: Buffer[] = [];
  for (const g of pushdown.grep) {
    const pieces = g.pattern.split('*').filter((p) => p.length > 0);
    if (g.invert) {
      // NOT LIKE can only be pushed exactly: patterns without wildcards.
      if (g.pattern.includes('*') || !pieces.length) continue;
      greps.push(Buffer.from(pieces[0], 'utf8'));
      conds.push(`position($${3 + greps.length}::bytea in data) = 0`);
    } else {
      // Each piece must occur (a necessary condition; the pipeline checks the order).
      for (const p of pieces) {
        greps.push(Buffer.from(p, 'utf8'));
        conds.push(`position($${3 + greps.length}::bytea in data) > 0`);
      }
    }
  }
  const sql = `SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, tag, src, data, evs FROM entry WHERE ${conds.join(' AND ')}${pushdown.ordered ? ' ORDER BY ts DESC' : ''}`;
  return { sql, greps };
}

async function main(job: ScanJob, port: NonNullable<typeof parentPort>): Promise<void> {
  let inflight = 0;
  let wake: (() => void) | undefined;
  port.on('message', (m: HostMessage) => {
    if (m.type === 'ack') {
      inflight--;
      wake?.();
    }
  });
  const post = async (m: WorkerMessage) => {
    port.postMessage(m);
    if (m.type !== 'batch') return;
    inflight++;
    while (inflight >= job.window) await new Promise<void>((r) => (wake = r));
  };

  const compiled = compileQuery(job.query, { start: new Date(job.start), end: new Date(job.end), now: new Date(job.now), tagNames: new Map(job.tagNames) });
  const runner = compiled.createDistributed();
  let scanned = 0;
  let bytes = 0;
  const fromUs = compiled.start.getTime() * 1000;
  const toUs = compiled.end.getTime() * 1000;

  if (job.tagIds.length && toUs > fromUs) {
    const client = new Client({ connectionString: job.connectionString, connectionTimeoutMillis: job.connectTimeoutMs, statement_timeout: job.statementTimeoutMs });
    try {
      await client.connect();
    } catch (err) {
      await post({ type: 'error', unavailable: true, message: (err as Error).message });
      return;
    }
    try {
      const firstDay = dayOfMicros(fromUs);
      const lastDay = dayOfMicros(toUs - 1);
      const days = (await client.query<{ name: string }>(LIST_PARTITIONS_SQL)).rows
        .map((r) => partitionDay(r.name))
        .filter((d): d is number => d !== undefined && d >= firstDay && d <= lastDay)
        .sort((a, b) => b - a);
      const { ordered } = compiled.pushdown;
      const { sql, greps } = buildScanSql(compiled.pushdown);
      const fetch = `FETCH ${job.fetchSize} FROM scan`;
      for (const day of days) {
        const lo = new Date(Math.max(day * DAY_MS_CONST, compiled.start.getTime()));
        const hi = new Date(Math.min((day + 1) * DAY_MS_CONST, compiled.end.getTime()));
        await client.query('BEGIN READ ONLY');
        await client.query(`DECLARE scan NO SCROLL CURSOR FOR ${sql}`, [lo, hi, job.tagIds, ...greps]);
        // One FETCH always in flight: PostgreSQL produces the next batch while this one runs
        // through the pipeline.
        let next: Promise<{ rows: Row[] }> | undefined = client.query<Row>(fetch);
        while (next) {
          const rows: Row[] = (await next).rows;
          next = rows.length === job.fetchSize ? client.query<Row>(fetch) : undefined;
          next?.catch(() => undefined); // awaited on the next turn; a failure then ends the scan
          if (!rows.length) break;
          const batch = rows.map(toEntry);
          scanned += batch.length;
          for (const e of batch) bytes += e.data.length;
          const out = runner.push(batch);
          // Unordered scans only serve condensing queries: no entries, so no watermark to honour.
          const watermark = next && ordered ? batch[batch.length - 1].ts : day * DAY_MS_CONST * 1000;
          await post({ type: 'batch', entries: out, watermark, scanned, bytes });
        }
        await client.query('COMMIT');
        await post({ type: 'batch', entries: [], watermark: day * DAY_MS_CONST * 1000, scanned, bytes });
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  await post({ type: 'done', partial: runner.finish(), scanned, bytes });
}

if (parentPort && workerData && (workerData as { kind?: string }).kind === 'scan') {
  const port = parentPort;
  main((workerData as { job: ScanJob }).job, port).catch((err: unknown) => {
    const e = err as { code?: string; message?: string };
    const unavailable = /^(08|57P|53)/.test(e?.code ?? '') || /ECONNREFUSED|Connection terminated/.test(e?.message ?? '');
    port.postMessage({ type: 'error', unavailable, message: e?.message ?? String(err) } satisfies WorkerMessage);
  });
}
