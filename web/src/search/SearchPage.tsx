import { useCallback, useEffect, useRef, useState } from 'react';
import { ActionablesProvider } from '../actionables/ValueActions';
import { useSearchParams } from 'react-router';
import { onSessionEnded } from '../api/client';
import { SideEffect } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { usePrefs } from '../prefs/PrefsContext';
import { SideEffectConsent } from '../ui/SideEffectConsent';
import { useCatalog } from './catalog';
import { forgetDraft, keepDraft, readDraft } from './draft';
import { ParseOutcome } from './editor-extensions';
import { QueryEditor } from './QueryEditor';
import { ChartType, RendererOptions } from './results/chart-options';
import { ResultView } from './results/ResultView';
import { SaveAsTemplate } from '../templates/SaveAsTemplate';
import { SearchActions } from './SearchActions';
import { SearchStatus } from './SearchStatus';
import { TimePicker } from './TimePicker';
import { rangeFromParams, rangeToParams, resolveRange, TimeRange } from './time-range';
import { sideEffectsOf } from './side-effects';
import { useSearch } from './useSearch';

/**
 * The search page. Its URL says what to show: `?q=<query>&t=1h` (or `from=&to=`) fills the
 * query and range, `&run=1` runs it at once (links from history, the library and dashboard tiles),
 * unless it has side effects: a query that did not come from the person's keyboard is shown with
 * what it would change, and runs when they say so. `?id=<search ID>` opens an existing search
 * (persistent searches). `chart=bar` picks the chart type.
 * A query being typed when the session ended comes back after signing in again (draft.ts).
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const { prefs, loaded } = usePrefs();
  const { catalog, renderers } = useCatalog();
  const { user } = useAuth();
  const [draft] = useState(() => readDraft(user.User));
  const [query, setQuery] = useState(() => draft?.query ?? params.get('q') ?? '');
  const [range, setRange] = useState<TimeRange>(() => draft?.range ?? rangeFromParams(params, { kind: 'relative', preset: prefs.defaultRange }));
  const [parsed, setParsed] = useState<ParseOutcome>();
  const [chartType, setChartType] = useState<ChartType>(() => (['line', 'area', 'bar', 'pie'].includes(params.get('chart') ?? '') ? (params.get('chart') as ChartType) : 'line'));
  const [chartOptions, setChartOptions] = useState<RendererOptions>({});
  const search = useSearch();
  const [now, setNow] = useState(() => performance.now());
  const queryRef = useRef(query);
  queryRef.current = query;

  // The session ends (a 401): keep what is typed for after signing in again; it was given back.
  useEffect(() => onSessionEnded(() => keepDraft(user.User, query, range)), [user.User, query, range]);
  useEffect(() => forgetDraft(), []);

  // The person's default range, once their settings arrive (unless the URL or the draft names one).
  const touchedRange = useRef(params.has('t') || params.has('from') || !!draft?.range);
  useEffect(() => {
    if (loaded && !touchedRange.current) setRange({ kind: 'relative', preset: prefs.defaultRange });
  }, [loaded, prefs.defaultRange]);

  const run = useCallback(
    (r: TimeRange = range) => {
      const q = queryRef.current;
      if (!q.trim()) return;
      const { start, end } = resolveRange(r);
      const next = new URLSearchParams();
      next.set('q', q);
      rangeToParams(r, next);
      if (chartType !== 'line') next.set('chart', chartType);
      setParams(next, { replace: true });
      void search.run(q, start, end);
    },
    [range, chartType, setParams, search],
  );

  // A query from a link (?run=1) that would change something waits for the person's word.
  const [consent, setConsent] = useState<{ query: string; effects: SideEffect[]; problem?: string }>();
  const runRef = useRef(run);
  runRef.current = run;
  const runFromLink = useCallback(async () => {
    const q = queryRef.current;
    let effects: SideEffect[];
    try {
      effects = await sideEffectsOf(q);
    } catch (err) {
      if (queryRef.current === q) setConsent({ query: q, effects: [], problem: `What it would change could not be checked: ${(err as Error).message}` });
      return;
    }
    if (queryRef.current !== q) return; // edited meanwhile: the person runs it themselves
    if (effects.length) setConsent({ query: q, effects });
    else runRef.current();
  }, []);
  /** The person runs the query themselves (Enter, Search) or agrees to what it changes. */
  const runByHand = useCallback(() => {
    setConsent(undefined);
    run();
  }, [run]);

  // ?run=1 and ?id= act once, when the page opens.
  useEffect(() => {
    const id = params.get('id');
    if (id) void search.attach(id);
    else if (params.get('run') === '1' && query.trim()) void runFromLink();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the page opens

  // An opened search shows its own query and range.
  const info = search.state?.info;
  useEffect(() => {
    if (info && params.get('id') === info.ID) {
      setQuery(info.UserQuery);
      setRange({ kind: 'absolute', start: new Date(info.StartRange), end: new Date(info.EndRange) });
    }
  }, [info?.ID]); // eslint-disable-line react-hooks/exhaustive-deps -- only when another search is shown

  const running = search.starting || search.state?.phase === 'running';
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(performance.now()), 200);
    return () => clearInterval(t);
  }, [running]);

  const onFirstResult = useCallback(() => {
    if (performance.getEntriesByName('search-first-result').length === 0 && performance.getEntriesByName('search-run').length > 0) performance.mark('search-first-result');
  }, []);

  const zoom = useCallback(
    (start: Date, end: Date) => {
      const r: TimeRange = { kind: 'absolute', start, end };
      touchedRange.current = true;
      setRange(r);
      run(r);
    },
    [run],
  );

  const parseError = parsed && parsed.query === query ? parsed.message : undefined;

  // An edit makes the last launch's error stale: it goes, and the editor checks the new text itself.
  const { dismissFailure } = search;
  const edit = useCallback(
    (q: string) => {
      if (q !== queryRef.current) {
        dismissFailure();
        setConsent(undefined);
      }
      setQuery(q);
    },
    [dismissFailure],
  );

  return (
    <ActionablesProvider>
      <div className="search-page">
        <h1 className="visually-hidden">Search</h1>
        <form
          className="query-bar"
          aria-label="Search"
          onSubmit={(e) => {
            e.preventDefault();
            runByHand();
          }}
        >
          <QueryEditor value={query} onChange={edit} onRun={runByHand} onParsed={setParsed} catalog={catalog} describedBy="query-problem" />
          <div className="query-controls">
            <TimePicker
              value={range}
              zone={prefs.timeZone}
              onChange={(r) => {
                touchedRange.current = true;
                setRange(r);
              }}
            />
            <button type="submit" className="primary" disabled={!query.trim()}>
              Search
            </button>
            <button type="button" onClick={() => void search.stop()} disabled={search.state?.phase !== 'running'}>
              Stop
            </button>
          </div>
        </form>
        {/* Outside the query's form: the template's own form opens from here. A query with %%NAME%% does not run, so this is offered before any run. */}
        <div className="toolbar query-extras">
          <SaveAsTemplate query={query} />
        </div>
        <div id="query-problem">
          {parseError && (
            <p className="error parse-error" role="alert">
              {parseError.charAt(0).toUpperCase() + parseError.slice(1)}
            </p>
          )}
        </div>
        {consent && (
          <SideEffectConsent why="This query came from a link, not from your keyboard." effects={consent.effects} refusal={consent.problem} onRun={runByHand}>
            <p className="muted">Nothing has run yet. Run it as it is, or edit it above and run it yourself.</p>
          </SideEffectConsent>
        )}
        {search.failure && !(search.failure.query && parseError) && (
          <p className="error" role="alert">
            {search.failure.message}
          </p>
        )}
        {search.starting && (
          <p className="search-status" role="status">
            Starting the search…
          </p>
        )}
        {search.session && search.state && (
          <>
            <div className="status-row">
              <SearchStatus state={search.state} now={now} />
              <SearchActions session={search.session} state={search.state} chart={{ type: chartType, options: chartOptions }} range={range} />
            </div>
            <ResultView
              key={search.session.id}
              session={search.session}
              state={search.state}
              renderers={renderers}
              onZoom={zoom}
              onFirstResult={onFirstResult}
              chart={{ type: chartType, options: chartOptions, onType: setChartType, onOptions: setChartOptions }}
            />
          </>
        )}
        {!search.session && !search.failure && !search.starting && !consent && <Help />}
      </div>
    </ActionablesProvider>
  );
}

function Help() {
  return (
    <section className="help muted" aria-label="How to search">
      <p>
        Type a query, pick a time range, and press <kbd>Enter</kbd> (or <kbd>Ctrl</kbd>+<kbd>Enter</kbd>). <kbd>Shift</kbd>+<kbd>Enter</kbd> starts a new line; <kbd>Ctrl</kbd>+
        <kbd>Space</kbd> lists modules.
      </p>
      <p>
        Examples: <code>tag=syslog grep error</code>, <code>tag=web kv status | count by status | table</code>,{' '}
        <code>tag=web kv status | stats count by status over 5m | chart count by status</code>.
      </p>
    </section>
  );
}
