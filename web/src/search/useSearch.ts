import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { api, ApiError } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { ParseResponse } from '../api/types';
import { describeModule } from './query-language';
import { SearchSession, SessionState } from './search-session';
import { useLatest } from '../ui/useCancellable';

export interface LaunchFailure {
  message: string;
  /** the query itself is wrong (the editor shows it too) */
  query?: boolean;
}

const noop = () => () => undefined;
const none = () => undefined;

/** Words for a search that could not start; a query error names its module. */
async function launchFailure(err: unknown, query: string): Promise<LaunchFailure> {
  if (!(err instanceof ApiError)) return { message: (err as Error)?.message ?? 'The search could not start.' };
  if (err.status === 400) {
    const parsed = await api<ParseResponse>('/api/parse', { method: 'POST', json: { SearchString: query } }).catch(() => undefined);
    if (parsed && !parsed.GoodQuery) return { message: `The query has an error in ${describeModule(query, parsed.ModuleIndex)}: ${parsed.ParseError}`, query: true };
  }
  if (err.status === 429) return { message: `${err.message}${err.retryAfter ? ` (try again in ${err.retryAfter} s)` : ''}` };
  return { message: err.message };
}

/**
 * The search the page shows: launching one leaves the previous one; leaving the page (or the
 * browser tab) detaches, so the service removes searches nobody kept. Signing out detaches
 * first, while the session can still do so (a backgrounded search then shows no page open).
 */
export function useSearch() {
  const [session, setSession] = useState<SearchSession | null>(null);
  const [failure, setFailure] = useState<LaunchFailure>();
  const [starting, setStarting] = useState(false);
  const current = useRef<SearchSession | null>(null);
  const latest = useLatest();
  const state = useSyncExternalStore<SessionState | undefined>(session?.subscribe ?? noop, session?.getSnapshot ?? none);

  const replace = useCallback((next: SearchSession | null) => {
    void current.current?.dispose();
    current.current = next;
    setSession(next);
  }, []);

  const start = useCallback(
    async (open: () => Promise<SearchSession>, query: string) => {
      const isLatest = latest.begin();
      replace(null);
      setFailure(undefined);
      setStarting(true);
      try {
        const s = await open();
        if (!isLatest()) return s.dispose();
        replace(s);
      } catch (err) {
        if (isLatest()) setFailure(await launchFailure(err, query));
      } finally {
        if (isLatest()) setStarting(false);
      }
    },
    [replace, latest],
  );

  const run = useCallback(
    (query: string, start_: Date, end: Date) => {
      performance.clearMarks('search-run');
      performance.clearMarks('search-first-result');
      const t0 = performance.mark('search-run').startTime;
      return start(() => SearchSession.launch({ SearchString: query, SearchStart: start_.toISOString(), SearchEnd: end.toISOString() }, t0), query);
    },
    [start],
  );

  const attach = useCallback((id: string) => start(() => SearchSession.attach(id), ''), [start]);

  const stop = useCallback(async () => {
    try {
      await current.current?.stop();
    } catch (err) {
      setFailure({ message: `Could not stop the search: ${(err as Error).message}` });
    }
  }, []);

  /** Forgets why the last launch failed (the query it was about has been edited). */
  const dismissFailure = useCallback(() => setFailure(undefined), []);

  const { onSignOut } = useAuth();
  useEffect(() => onSignOut(() => SearchSession.leaveAll()), [onSignOut]);

  useEffect(() => {
    const leave = () => void current.current?.dispose();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, []);

  return { session, state, failure, starting, run, attach, stop, dismissFailure };
}
