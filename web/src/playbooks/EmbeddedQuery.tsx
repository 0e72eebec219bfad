import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { SideEffect } from '../api/types';
import { chartTypeOf } from '../dashboards/dashboard-data';
import { ResultView } from '../search/results/ResultView';
import { SearchSession } from '../search/search-session';
import { sideEffectsOf } from '../search/side-effects';
import { resolveRange, TimeRange } from '../search/time-range';
import { searchLink } from '../ui/search-link';
import { SideEffectConsent } from '../ui/SideEffectConsent';
import { formatCount } from '../ui/time-format';

const noop = () => () => undefined;
const none = () => undefined;

type Step = { kind: 'idle' } | { kind: 'checking' } | { kind: 'consent'; effects: SideEffect[] } | { kind: 'failed'; message: string };

/**
 * A query of a playbook: its text, a Run button, and (once run) its results drawn in place by the
 * console's one result view, over the playbook's time range. A query someone else wrote
 * (`foreign`) that would change the reader's data asks first, as a dashboard tile does. The search
 * is left when the query's block goes (the page closes, the text changes).
 */
export function EmbeddedQuery({ query, index, range, foreign }: { query: string; index: number; range: TimeRange; foreign: boolean }) {
  const [session, setSession] = useState<SearchSession | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const held = useRef<SearchSession | null>(null);
  const state = useSyncExternalStore(session?.subscribe ?? noop, session?.getSnapshot ?? none);
  const label = `Query ${index + 1}`;

  useEffect(
    () => () => {
      void held.current?.dispose();
      held.current = null;
    },
    [query],
  );

  async function launch() {
    const { start, end } = resolveRange(range);
    try {
      const s = await SearchSession.launch({ SearchString: query, SearchStart: start.toISOString(), SearchEnd: end.toISOString() });
      void held.current?.dispose();
      held.current = s;
      setSession(s);
      setStep({ kind: 'idle' });
    } catch (err) {
      setStep({ kind: 'failed', message: (err as Error).message });
    }
  }

  async function run() {
    setStep({ kind: 'checking' });
    if (foreign) {
      const effects = await sideEffectsOf(query).catch(() => []);
      if (effects.length) return setStep({ kind: 'consent', effects });
    }
    await launch();
  }

  return (
    <section className="playbook-query" aria-label={label}>
      <div className="playbook-query-head">
        <pre className="playbook-query-text">
          <code>{query}</code>
        </pre>
        <div className="toolbar">
          <button
            type="button"
            className="primary"
            onClick={() => void run()}
            disabled={step.kind === 'checking' || state?.phase === 'running' || !query}
            aria-label={`Run ${label}`}
          >
            {session ? 'Run again' : 'Run'}
          </button>
          <Link className="button" to={searchLink(query)} aria-label={`Open ${label} in the search page`} title="Open in the search page">
            ↗
          </Link>
        </div>
      </div>
      {step.kind === 'consent' && <SideEffectConsent why="Someone else wrote this playbook." effects={step.effects} onRun={() => void launch()} compact />}
      {step.kind === 'failed' && (
        <p className="error" role="alert">
          The search could not start: {step.message}
        </p>
      )}
      {session && state && (
        <section className="playbook-result" aria-label={`Results of ${label}`}>
          {state.phase === 'failed' ? (
            <p className="error" role="alert">
              The search failed: {state.error}
            </p>
          ) : state.phase === 'running' ? (
            <p className="muted tile-note" role="status">
              Searching… {formatCount(state.stats?.EntryCount ?? 0)} entries so far
            </p>
          ) : (
            <ResultView key={session.id} session={session} state={state} compact chart={{ type: chartTypeOf(session.renderer), options: {} }} />
          )}
        </section>
      )}
    </section>
  );
}
