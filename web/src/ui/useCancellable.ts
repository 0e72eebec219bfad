import { DependencyList, useEffect, useMemo, useRef } from 'react';

/** What to do with a request's outcome while it is still wanted. */
export interface Outcome<T> {
  answer(value: T): void;
  /** the refusal; left out, a failed request changes nothing */
  error?(err: Error): void;
}

/**
 * Runs `start` when the component mounts and whenever `deps` change, and hands its outcome on only
 * while it is still wanted: once the component unmounts or `deps` change, the answer of the
 * earlier request falls on the floor (it never overwrites a newer one). `start` may return
 * undefined to ask nothing this time; `current()` tells work that goes on in steps whether it is
 * still wanted. The one cancellation guard of the console's effects.
 */
export function useCancellable<T>(start: (current: () => boolean) => Promise<T> | undefined, outcome: Outcome<T>, deps: DependencyList): void {
  useEffect(() => {
    let live = true;
    const request = start(() => live);
    void request?.then(
      (value) => {
        if (live) outcome.answer(value);
      },
      (err: unknown) => {
        if (live) outcome.error?.(err as Error);
      },
    );
    return () => {
      live = false;
    };
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps -- the caller names what the request depends on
}

/**
 * For requests started by hand (a launch, a refresh on a timer, a filter being typed) where only
 * the latest one's answer counts: `begin()` starts a new request and returns `isLatest()`, true
 * until the next begin(); `join()` returns it for the request already running (a next page of the
 * same answer).
 */
export function useLatest(): { begin(): () => boolean; join(): () => boolean } {
  const generation = useRef(0);
  return useMemo(
    () => ({
      begin() {
        const gen = ++generation.current;
        return () => gen === generation.current;
      },
      join() {
        const gen = generation.current;
        return () => gen === generation.current;
      },
    }),
    [],
  );
}
