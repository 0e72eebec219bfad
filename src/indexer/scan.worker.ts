/**
 * Worker-thread side of an indexer scan: compiles the query, reads the blocks of one day
 * partition at a time (DayScan: newest first when the query needs it), runs the distributed part
 * of the pipeline and posts surviving entries / the partial state back. A worker
 * runs one job at a time and keeps its PostgreSQL connection for the next. Never imports Nest.
 */
import { readFileSync } from 'node:fs';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { CompiledQuery, compileQuery, Entry } from '../query';
import { useLz4Module } from './block-codec';
import { blockFilter } from './block-scan';
import { DayScan, DayScanContext } from './day-scan';
import { dayOfMicros, DAY_MS_CONST, LIST_PARTITIONS_SQL, partitionDay } from './indexer.schema';
import { encodeBatch } from './entry-encoding';
import { currentThreadId, renice, SEARCH_NICE } from './search-priority';
import { HostMessage, MergeJob, ScanJob, WorkerMessage } from './scan.protocol';

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

/** The query of a scan or merge job, compiled as the web server compiled it (same range, now, tags, lookups, limits and `ax` definitions). */
function compileJob(job: ScanJob | MergeJob): CompiledQuery {
  return compileQuery(job.query, {
    start: new Date(job.start),
    end: new Date(job.end),
    now: new Date(job.now),
    tagNames: new Map(job.tagNames),
    lookups: job.lookups && new Map(job.lookups),
    limits: job.limits,
    autoextractors: job.autoextractors ?? [],
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
    const emit = async (batch: Entry[], watermark: number) => {
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
    const ctx: DayScanContext = {
      client,
      tagIds: job.tagIds,
      split: job.split,
      ordered: compiled.pushdown.ordered,
      filter: blockFilter(compiled.pushdown, fromUs, toUs),
      batchSize: job.fetchSize,
      emit,
    };
    for (const day of days) {
      await new DayScan(ctx, day).run();
      await out.post({ type: 'batch', entries: [], watermark: day * DAY_MS_CONST * 1000, scanned, bytes });
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
  const lz4 = (workerData as { lz4?: WebAssembly.Module }).lz4;
  if (lz4) useLz4Module(lz4);
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
