/**
 * Worker-thread side of an indexer scan: compiles the query, streams matching rows (newest first
 * when the query needs it) through a server-side cursor, one day partition at a time, runs the
 * distributed part of the pipeline and posts surviving entries / the partial state back. A worker
 * runs one job at a time and keeps its PostgreSQL connection for the next. Never imports Nest.
 */
import { readFileSync } from 'node:fs';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { CompiledQuery, compileQuery, Entry } from '../query';
import { BlockReader } from './block-codec';
import { blockFilter, BlockRow, NewestFirstMerge, selectEntries, toEntry } from './block-scan';
import { dayOfMicros, DAY_MS_CONST, LIST_PARTITIONS_SQL, partitionDay } from './indexer.schema';
import { encodeBatch } from './entry-encoding';
import { currentThreadId, renice, SEARCH_NICE } from './search-priority';
import { HostMessage, MergeJob, ScanJob, ScanSplit, WorkerMessage } from './scan.protocol';

/** Blocks per FETCH: a few MiB at most, one FETCH in flight while the last one is scanned. */
const BLOCKS_PER_FETCH = 4;

/**
 * The scan statement of one day: the blocks of the tags that overlap the time range (the
 * partition by `lo`, the rest by the block row's columns; bodies are never opened for this),
 * newest block first when the query needs entries in order, and this job's shards when an
 * order-free search is split.
 */
export function buildScanSql(ordered: boolean, split?: ScanSplit): string {
  const conds = ['lo >= $1', 'lo < $2', 'hi >= $3', 'tag = ANY($4::smallint[])'];
  if (split) conds.push(`shard % ${Math.floor(split.of)} = ${Math.floor(split.part)}`);
  const cols = 'tag, (extract(epoch FROM lo) * 1000000)::float8 AS lo, (extract(epoch FROM hi) * 1000000)::float8 AS hi, n, body';
  return `SELECT ${cols} FROM block WHERE ${conds.join(' AND ')}${ordered ? ' ORDER BY hi DESC' : ''}`;
}

/** How scan connections show in pg_stat_activity. */
export const SCAN_APPLICATION_NAME = 'search-scan';

/** Connection-class failures: the indexer is unreachable (503), or a kept connection went stale. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return /^(08|57P|53)/.test(e?.code ?? '') || /ECONNREFUSED|ECONNRESET|Connection terminated|not queryable|timeout expired/i.test(e?.message ?? '');
}

/** The worker's PostgreSQL connection, kept between jobs and dropped when it fails. */
class KeptConnection {
  private client?: Client;
  private key?: string;

  /** The kept client (reused: true) or a new one for the job's indexer. */
  async get(job: ScanJob): Promise<{ client: Client; reused: boolean }> {
    const key = `${job.connectionString}\n${job.statementTimeoutMs}`;
    if (this.client && this.key === key) return { client: this.client, reused: true };
    this.drop();
    const client = new Client({
      connectionString: job.connectionString,
      connectionTimeoutMillis: job.connectTimeoutMs,
      statement_timeout: job.statementTimeoutMs,
      application_name: SCAN_APPLICATION_NAME,
    });
    client.on('error', () => this.client === client && this.drop()); // e.g. PostgreSQL restarted while idle
    await client.connect();
    await lowerBackendPriority(client, job.connectionString);
    this.client = client;
    this.key = key;
    return { client, reused: false };
  }

  drop(): void {
    void this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}

/** Day partitions overlapping [fromUs, toUs), newest first. */
async function daysToScan(client: Client, fromUs: number, toUs: number): Promise<number[]> {
  const firstDay = dayOfMicros(fromUs);
  const lastDay = dayOfMicros(toUs - 1);
  return (await client.query<{ name: string }>(LIST_PARTITIONS_SQL)).rows
    .map((r) => partitionDay(r.name))
    .filter((d): d is number => d !== undefined && d >= firstDay && d <= lastDay)
    .sort((a, b) => b - a);
}

/** Flow control of one job: at most `window` batches posted and not yet acknowledged. */
class JobOutbox {
  private inflight = 0;
  private wake?: () => void;

  constructor(
    readonly id: number,
    private readonly window: number,
    private readonly port: MessagePort,
  ) {}

  ack(): void {
    this.inflight--;
    this.wake?.();
  }

  async post(m: WorkerMessage, transfer: ArrayBuffer[] = []): Promise<void> {
    this.port.postMessage(m, transfer);
    if (m.type !== 'batch') return;
    this.inflight++;
    while (this.inflight >= this.window) await new Promise<void>((r) => (this.wake = r));
  }
}

/** The query of a scan or merge job, compiled as the web server compiled it (same range, now, tags, lookups and limits). */
function compileJob(job: ScanJob | MergeJob): CompiledQuery {
  return compileQuery(job.query, {
    start: new Date(job.start),
    end: new Date(job.end),
    now: new Date(job.now),
    tagNames: new Map(job.tagNames),
    lookups: job.lookups && new Map(job.lookups),
    limits: job.limits,
  });
}

async function runJob(job: ScanJob, out: JobOutbox, conn: KeptConnection): Promise<void> {
  const compiled = compileJob(job);
  const runner = compiled.createDistributed();
  let scanned = 0;
  let bytes = 0;
  const fromUs = compiled.start.getTime() * 1000;
  const toUs = compiled.end.getTime() * 1000;

  if (job.tagIds.length && toUs > fromUs) {
    let client: Client;
    let days: number[];
    try {
      const kept = await conn.get(job);
      client = kept.client;
      try {
        days = await daysToScan(client, fromUs, toUs);
      } catch (err) {
        // A kept connection may have gone stale (PostgreSQL restarted): one retry on a new one.
        if (!kept.reused || !isConnectionError(err)) throw err;
        conn.drop();
        client = (await conn.get(job)).client;
        days = await daysToScan(client, fromUs, toUs);
      }
    } catch (err) {
      conn.drop();
      await out.post({ type: 'error', unavailable: true, message: (err as Error).message });
      return;
    }
    const { ordered } = compiled.pushdown;
    const filter = blockFilter(compiled.pushdown, fromUs, toUs);
    const sql = buildScanSql(ordered, job.split);
    const fetch = { text: `FETCH ${BLOCKS_PER_FETCH} FROM scan`, binary: true };
    for (const day of days) {
      const dayStart = day * DAY_MS_CONST * 1000;
      const dayEnd = (day + 1) * DAY_MS_CONST * 1000;
      // Entries handed to the pipeline, and posted once `job.fetchSize` are ready.
      let pending: Entry[] = [];
      const flush = async (watermark: number) => {
        if (!pending.length) return;
        const batch = pending;
        pending = [];
        scanned += batch.length;
        for (const e of batch) bytes += e.data.length;
        const entries = runner.push(batch);
        if (job.encode) {
          // Encoded here, sent without a copy: the HTTP event loop only writes the bytes out.
          const encoded = encodeBatch(entries, job.encode);
          await out.post({ type: 'batch', entries: [], encoded, watermark, scanned, bytes }, [encoded.bytes.buffer, encoded.ends.buffer, encoded.ts.buffer]);
        } else {
          await out.post({ type: 'batch', entries, watermark, scanned, bytes });
        }
      };
      const merge = new NewestFirstMerge();
      // Newest-first scans know their watermark exactly (every entry still to come is older);
      // order-free ones (condensing queries: nothing to merge) only once the day is done.
      const drain = async (bound: number) => {
        for (;;) {
          const got = merge.take(bound, job.fetchSize - pending.length);
          pending.push(...got);
          if (pending.length < job.fetchSize) return;
          await flush(pending[pending.length - 1].ts);
        }
      };
      // One snapshot for the day: a compaction committing meanwhile is either wholly seen or not at all.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`DECLARE scan NO SCROLL CURSOR FOR ${sql}`, [new Date(dayStart / 1000), new Date(Math.min(dayEnd, toUs) / 1000), new Date(fromUs / 1000), job.tagIds]);
      // One FETCH always in flight: PostgreSQL reads the next blocks while these are scanned.
      let next: Promise<{ rows: BlockRow[] }> | undefined = client.query<BlockRow>(fetch);
      while (next) {
        const rows: BlockRow[] = (await next).rows;
        next = rows.length === BLOCKS_PER_FETCH ? client.query<BlockRow>(fetch) : undefined;
        next?.catch(() => undefined); // awaited on the next turn; a failure then ends the scan
        for (const row of rows) {
          const block = BlockReader.decompress(row.body);
          const idx = selectEntries(block, row, filter);
          if (ordered) {
            // Everything at or after this block's newest entry can go: no later block holds newer.
            await drain(row.hi);
            merge.add(block, idx, row.tag);
          } else {
            for (const i of idx) {
              pending.push(toEntry(block, i, row.tag));
              if (pending.length >= job.fetchSize) await flush(Math.min(toUs, dayEnd));
            }
          }
        }
      }
      await drain(Number.NEGATIVE_INFINITY);
      await flush(ordered && pending.length ? pending[pending.length - 1].ts : Math.min(toUs, dayEnd));
      await client.query('COMMIT');
      await out.post({ type: 'batch', entries: [], watermark: dayStart, scanned, bytes });
    }
  }
  await out.post({ type: 'done', partial: runner.finish(), scanned, bytes });
}

/** The web server's side of a condensing query (see MergeJob). */
function runMerge(job: MergeJob): WorkerMessage {
  const compiled = compileJob(job);
  const collapser = compiled.createCollapser({ retainEntries: job.retainEntries });
  for (const p of job.partials) collapser.addPartial(p);
  return { type: 'merged', result: collapser.finish() };
}

/**
 * The PostgreSQL backend serving a scan yields the CPU too, when it runs on this machine (the
 * embedded server, or a local one whose processes this user may renice): ingest and the
 * service's own queries are not slowed by another user's big scan. Elsewhere nothing changes.
 */
async function lowerBackendPriority(client: Client, url: string): Promise<void> {
  try {
    const host = new URL(url).hostname;
    if (!['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host)) return;
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Behind a container's port the PID belongs to another namespace: only a postgres process here.
    if (!readFileSync(`/proc/${rows[0].pid}/cmdline`, 'utf8').includes('postgres')) return;
    if (renice(rows[0].pid, SEARCH_NICE)) parentPort?.postMessage({ type: 'threads', backend: rows[0].pid } satisfies WorkerMessage);
  } catch {
    /* not local: keep its priority */
  }
}

if (parentPort && workerData && (workerData as { kind?: string }).kind === 'scan') {
  // This thread yields the CPU to the HTTP event loop (search-priority.ts); the host may lower it further.
  const tid = currentThreadId();
  if (tid !== undefined && renice(tid, SEARCH_NICE)) parentPort.postMessage({ type: 'threads', tid } satisfies WorkerMessage);
  const port = parentPort;
  const conn = new KeptConnection();
  let current: JobOutbox | undefined;
  port.on('message', (m: HostMessage) => {
    if (m.type === 'ack') {
      if (current?.id === m.id) current.ack();
      return;
    }
    if (m.type === 'merge') {
      let reply: WorkerMessage;
      try {
        reply = runMerge(m.job);
      } catch (err) {
        reply = { type: 'error', unavailable: false, message: (err as Error)?.message ?? String(err) };
      }
      return port.postMessage(reply);
    }
    const out = (current = new JobOutbox(m.id, m.job.window, port));
    runJob(m.job, out, conn).catch((err: unknown) => {
      // The host discards a worker that reported an error, so nothing is reset here.
      port.postMessage({ type: 'error', unavailable: isConnectionError(err), message: (err as Error)?.message ?? String(err) } satisfies WorkerMessage);
    });
  });
}
