/**
 * Worker-thread side of archive imports (SearchTransferService): unpacks, checks and rewrites an
 * archive (archive.ts) off the event loop, in a heap of IMPORT_WORKER_HEAP_MB, asking the web
 * server before it writes each chunk of the imported search's files (the owner's quotas live
 * there). Never imports Nest.
 */
import { workerData } from 'node:worker_threads';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { LONG_SEARCH_NICE } from '../indexer/search-priority';
import { serveTasks, TaskError } from '../search/task-thread';
import { importArchive, ImportLimits } from './archive';

export interface ImportInput {
  file: string;
  dir: string;
  limits: Omit<ImportLimits, 'take'>;
}

/** The web server's answer to "may I write this many more bytes": null, or why not (a 413's message and code). */
export type TakeAnswer = { message: string; code: ErrorCode } | null;

if ((workerData as { kind?: string } | null)?.kind === 'import') {
  // Batch work: it yields the CPU to every request and to searches (nice 19, as long searches).
  serveTasks(
    {
      import: async (input, ask) => {
        const { file, dir, limits } = input as ImportInput;
        const take = async (bytes: number) => {
          const refused = (await ask({ take: bytes })) as TakeAnswer;
          if (refused) throw new AppError(413, refused.message, {}, refused.code);
        };
        try {
          return { output: await importArchive(file, dir, { ...limits, take }) };
        } catch (err) {
          if (err instanceof AppError) throw new TaskError(err.status, err.message, err.code);
          throw err;
        }
      },
    },
    LONG_SEARCH_NICE,
  );
}
