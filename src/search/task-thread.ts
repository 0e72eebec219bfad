/**
 * Worker-thread side of TaskWorkers (task-workers.ts): runs one task at a time with the handler
 * of its kind and posts the answer back; a handler may ask the host something on the way
 * (`ask`, answered by the task's `onAsk`). The thread yields the CPU to the HTTP event loop
 * (SEARCH_NICE as scan workers, or lower). Never imports Nest.
 */
import { parentPort, TransferListItem } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { currentThreadId, renice, SEARCH_NICE } from '../indexer/search-priority';
import type { TaskFailure, TaskHostMessage, TaskThreadMessage } from './task-workers';
import type { ErrorCode } from '../common/errors/codes';

/** A task's handler: `ask` sends the host a question and resolves with its answer. */
export type TaskHandler = (input: unknown, ask: (question: unknown) => Promise<unknown>) => Promise<{ output: unknown; transfer?: TransferListItem[] }>;

/** An error a handler throws for the client (status, message and code reach the request as an AppError). */
export class TaskError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

/**
 * CPU time this thread has used, in ms: Linux's scheduler statistics (nanoseconds), else its
 * utime + stime (10 ms ticks), else wall time.
 */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    try {
      const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return performance.now();
    }
  }
}

/** Serves tasks on this worker thread with `handlers` (by task kind), at CPU priority `nice` (default SEARCH_NICE). */
export function serveTasks(handlers: Record<string, TaskHandler>, nice = SEARCH_NICE): void {
  const port = parentPort;
  if (!port) return;
  const tid = currentThreadId();
  if (tid !== undefined) renice(tid, nice);
  const questions = new Map<number, (answer: unknown) => void>();
  let nextQuestion = 1;
  port.on('message', (m: TaskHostMessage) => {
    if (m.type === 'answer') {
      questions.get(m.question)?.(m.answer);
      questions.delete(m.question);
      return;
    }
    const ask = (question: unknown) =>
      new Promise<unknown>((resolve) => {
        const q = nextQuestion++;
        questions.set(q, resolve);
        port.postMessage({ type: 'ask', id: m.id, question: q, payload: question } satisfies TaskThreadMessage);
      });
    const handler = handlers[m.kind];
    (handler ? handler(m.input, ask) : Promise.reject(new Error(`no task kind ${m.kind}`))).then(
      ({ output, transfer }) => port.postMessage({ type: 'done', id: m.id, output } satisfies TaskThreadMessage, transfer ?? []),
      (err: unknown) => {
        const failure: TaskFailure = err instanceof TaskError ? { status: err.status, message: err.message, code: err.code } : { message: (err as Error)?.message ?? String(err) };
        port.postMessage({ type: 'failed', id: m.id, failure } satisfies TaskThreadMessage);
      },
    );
  });
}
