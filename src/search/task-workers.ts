/**
 * Worker threads for work that must not run on the HTTP event loop (compiling a query, parsing a
 * lookup table, unpacking an archive): at most `size` tasks run at once, one per thread, and the
 * rest wait in arrival order (callers admit them per user first). Threads are started like scan
 * workers (worker-host.ts), run at SEARCH_NICE (task-thread.ts), are kept for the next task
 * while idle (unref'd, ended after IDLE_MS), and are ended when a task fails them (out of heap,
 * a crash) or its caller gives up on it.
 */
import { TransferListItem, Worker } from 'node:worker_threads';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { startWorkerThread } from '../indexer/worker-host';

/** An idle thread ends after this long unused. */
const IDLE_MS = 60_000;

export type TaskHostMessage = { type: 'task'; id: number; kind: string; input: unknown } | { type: 'answer'; question: number; answer: unknown };
export type TaskThreadMessage =
  { type: 'done'; id: number; output: unknown } | { type: 'failed'; id: number; failure: TaskFailure } | { type: 'ask'; id: number; question: number; payload: unknown };
/** A task's error: with a status, the client's (an AppError); without, the service's. */
export interface TaskFailure {
  status?: number;
  message: string;
  /** the catalogue code of a client's error */
  code?: ErrorCode;
}

/** A task's thread ran out of its heap (`heapMb`); the thread was ended. */
export class TaskOutOfMemory extends Error {
  constructor(readonly heapMb: number) {
    super(`the task needed more than ${heapMb} MiB of memory`);
  }
}

export interface TaskOptions {
  transfer?: TransferListItem[];
  /** Answers the task's questions (see task-thread.ts `ask`). */
  onAsk?: (payload: unknown) => unknown;
  /** Aborting ends the task's thread and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export class TaskWorkers {
  private readonly idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];
  private readonly live = new Set<Worker>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: { entry: string; size: number; heapMb: number; data?: Record<string, unknown> }) {}

  /** Runs a task of `kind` on a thread, when one is free; resolves with its output. */
  async run<T>(kind: string, input: unknown, opts: TaskOptions = {}): Promise<T> {
    if (this.running >= this.opts.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      opts.signal?.throwIfAborted();
      return await this.runOn<T>(this.take(), kind, input, opts);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Ends every thread (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.idle) clearTimeout(w.timer);
    this.idle.length = 0;
    const all = [...this.live];
    this.live.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }

  private take(): Worker {
    const kept = this.idle.pop();
    if (kept) {
      clearTimeout(kept.timer);
      kept.worker.ref();
      return kept.worker;
    }
    const worker = startWorkerThread(this.opts.entry, this.opts.data ?? {}, this.opts.heapMb);
    this.live.add(worker);
    worker.on('error', () => undefined); // while idle nobody listens: never an unhandled 'error'
    worker.on('exit', () => {
      this.live.delete(worker);
      const i = this.idle.findIndex((w) => w.worker === worker);
      if (i >= 0) clearTimeout(this.idle.splice(i, 1)[0].timer);
    });
    return worker;
  }

  private release(worker: Worker): void {
    if (this.closed || !this.live.has(worker)) return;
    worker.unref();
    const timer = setTimeout(() => this.discard(worker), IDLE_MS);
    timer.unref();
    this.idle.push({ worker, timer });
  }

  private discard(worker: Worker): void {
    this.live.delete(worker);
    const i = this.idle.findIndex((w) => w.worker === worker);
    if (i >= 0) clearTimeout(this.idle.splice(i, 1)[0].timer);
    void worker.terminate();
  }

  private runOn<T>(worker: Worker, kind: string, input: unknown, opts: TaskOptions): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (keep: boolean, f: () => void) => {
        if (settled) return;
        settled = true;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        opts.signal?.removeEventListener('abort', onAbort);
        if (keep) this.release(worker);
        else this.discard(worker);
        f();
      };
      const onMessage = (m: TaskThreadMessage) => {
        if (m.id !== id) return;
        if (m.type === 'done') finish(true, () => resolve(m.output as T));
        else if (m.type === 'failed')
          finish(true, () => reject(m.failure.status ? new AppError(m.failure.status, m.failure.message, {}, m.failure.code) : new Error(m.failure.message)));
        else
          Promise.resolve()
            .then(() => opts.onAsk?.(m.payload))
            .then(
              (answer) => !settled && worker.postMessage({ type: 'answer', question: m.question, answer } satisfies TaskHostMessage),
              (err: unknown) => finish(false, () => reject(err as Error)),
            );
      };
      const onError = (err: Error & { code?: string }) => finish(false, () => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TaskOutOfMemory(this.opts.heapMb) : err));
      const onExit = (code: number) => finish(false, () => reject(new Error(`task thread exited with code ${code}`)));
      const onAbort = () => finish(false, () => reject(opts.signal?.reason as Error));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ type: 'task', id, kind, input } satisfies TaskHostMessage, opts.transfer ?? []);
    });
  }
}
