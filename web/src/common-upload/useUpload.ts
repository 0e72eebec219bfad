import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../api/client';
import { UploadProgress } from './upload';

/** The state of one upload at a time: progress while it runs, a cancel, and the error in words. */
export function useUpload() {
  const [progress, setProgress] = useState<UploadProgress>();
  const [error, setError] = useState<string>();
  const abort = useRef<AbortController>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  /** Runs `send` with a progress callback and a signal; resolves with its answer, or undefined when it failed or was cancelled. */
  const run = useCallback(async <T>(send: (onProgress: (p: UploadProgress) => void, signal: AbortSignal) => Promise<T>): Promise<T | undefined> => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setError(undefined);
    setProgress({ loaded: 0, total: 0 });
    try {
      return await send(setProgress, ctl.signal);
    } catch (err) {
      setError(isAbort(err) ? 'The upload was cancelled.' : `The upload failed: ${(err as Error).message}`);
      return undefined;
    } finally {
      if (abort.current === ctl) {
        abort.current = undefined;
        setProgress(undefined);
      }
    }
  }, []);

  const cancel = useCallback(() => abort.current?.abort(), []);
  return { progress, error, setError, run, cancel, busy: progress !== undefined };
}
