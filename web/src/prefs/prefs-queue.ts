/**
 * Writes of the user's preferences blob (/api/users/{id}/preferences), one after another: each is a
 * read-modify-write of one top-level key, so changes made together by different parts of the
 * console (a setting, a notification dismissal) never overwrite each other, and other clients'
 * keys are kept. Pure logic: the requests are passed in.
 */

/** The blob as an object (anything else stored there counts as empty). */
export const blobObject = (blob: unknown): Record<string, unknown> => (blob && typeof blob === 'object' && !Array.isArray(blob) ? (blob as Record<string, unknown>) : {});

/** The blob with `key` replaced by `fn` of its value, every other key kept. */
export function withKey(blob: unknown, key: string, fn: (value: unknown) => unknown): Record<string, unknown> {
  const base = blobObject(blob);
  return { ...base, [key]: fn(base[key]) };
}

export interface BlobStore {
  load(): Promise<unknown>;
  store(blob: Record<string, unknown>): Promise<void>;
}

export class PrefsQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly io: BlobStore) {}

  /** Queues one update of `key`; resolves with the blob as written (rejects when it was not). */
  update(key: string, fn: (value: unknown) => unknown): Promise<Record<string, unknown>> {
    const run = this.tail
      .catch(() => undefined)
      .then(async () => {
        const next = withKey(await this.io.load(), key, fn);
        await this.io.store(next);
        return next;
      });
    this.tail = run;
    return run;
  }

  /** Whether `run` (an update's promise) is the last one queued: only its answer is the newest blob. */
  isLast(run: Promise<unknown>): boolean {
    return this.tail === run;
  }
}
