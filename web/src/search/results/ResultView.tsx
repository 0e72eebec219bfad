import { ReactNode, useEffect, useMemo, useState } from 'react';
import { openSelectionMenu, SourceRangeContext, useValueActions } from '../../actionables/ValueActions';
import { ChartResult, GaugeValue, SearchEntry, TableResult } from '../../api/types';
import { useCancellable } from '../../ui/useCancellable';
import { SearchSession, SessionState } from '../search-session';
import { ChartType, RendererOptions } from './chart-options';
import { ChartView } from './ChartView';
import { DownloadLinks } from './DownloadLinks';
import { EntryList } from './EntryList';
import { GaugeView } from './GaugeView';
import { Histogram } from './Histogram';
import { TableView } from './TableView';

export const ENTRY_RENDERERS = new Set(['text', 'raw', 'hex']);

export interface ResultViewProps {
  session: SearchSession;
  state: SessionState;
  /** the chart's type and settings, and where the person may change them (the search page) their setters */
  chart: { type: ChartType; options: RendererOptions; onType?(t: ChartType): void; onOptions?(o: RendererOptions): void };
  /** a dashboard tile: the result alone, filling its box (no histogram, downloads or chart settings), its notes in the tile's words */
  compact?: boolean;
  /** the renderers the service has, for the histogram above entries (not drawn when compact) */
  renderers?: ReadonlySet<string>;
  /** dragging across the time axis selects a range: the histogram's on the search page, the chart's in a tile */
  onZoom?(start: Date, end: Date): void;
  /** the first results are on screen, or the search ended with none */
  onFirstResult?(): void;
  /** a gauge drawn as a number card (a tile may choose it for a gauge search) */
  card?: boolean;
}

type Downloads = Array<{ format: string; href: string }>;

const noop = () => undefined;

/** The results of a search, drawn as its renderer says: on the search page, and (`compact`) in a dashboard tile. */
export function ResultView(props: ResultViewProps) {
  return (
    <ValueScope start={props.state.info.StartRange} end={props.state.info.EndRange}>
      <Results {...props} />
    </ValueScope>
  );
}

/**
 * Where values offer their actionables: the range of the search they came from (a query action
 * searches the same), and the context menu over selected text (the triggers that act on selections).
 */
function ValueScope({ start, end, children }: { start: string; end: string; children: ReactNode }) {
  const actions = useValueActions();
  const range = useMemo(() => ({ start, end }), [start, end]);
  return (
    <SourceRangeContext.Provider value={range}>
      <div className="value-scope" onContextMenu={(e) => openSelectionMenu(actions, e, range)}>
        {children}
      </div>
    </SourceRangeContext.Provider>
  );
}

function Results(props: ResultViewProps) {
  const { session, state, compact, renderers, onZoom, onFirstResult } = props;
  const downloads: Downloads = (state.info.RenderDownloadFormats ?? []).map((format) => ({ format, href: session.downloadUrl(format) }));
  const count = state.stats?.EntryCount ?? 0;
  const ended = state.phase === 'finished' || state.phase === 'stopped';

  useEffect(() => {
    if (ended && count === 0) onFirstResult?.();
  }, [ended, count, onFirstResult]);

  if (!ENTRY_RENDERERS.has(session.renderer)) return <Condensed key={session.id} {...props} downloads={downloads} ended={ended} />;
  const list =
    count === 0 && ended ? (
      <p className={compact ? 'muted tile-note' : 'empty'}>No entries matched in this time range.</p>
    ) : (
      <EntryList searchId={session.id} count={count} fetchPage={(a, b) => session.page<SearchEntry[]>(a, b)} onFirstRow={onFirstResult} />
    );
  if (compact) return list;
  return (
    <div className="results">
      {state.phase === 'finished' && !state.info.TimeZoomDisabled && count > 0 && renderers && (
        <Histogram info={state.info} renderers={renderers} onZoom={state.info.QueryTimeSpecified ? undefined : onZoom} />
      )}
      <ResultActions downloads={downloads} />
      {list}
    </div>
  );
}

function ResultActions({ downloads }: { downloads: Downloads }) {
  return (
    <div className="toolbar" role="toolbar" aria-label="Result actions">
      <DownloadLinks links={downloads} />
    </div>
  );
}

/** A renderer whose whole result is one page: a table, a chart, gauges. */
function Condensed({ session, chart, compact, onZoom, onFirstResult, card, downloads, ended }: ResultViewProps & { downloads: Downloads; ended: boolean }) {
  const [result, setResult] = useState<{ entries?: unknown; error?: string }>();
  useCancellable(() => (ended ? session.page<unknown>() : undefined), { answer: (p) => setResult({ entries: p.Entries }), error: (err) => setResult({ error: err.message }) }, [
    ended,
    session,
  ]);
  useEffect(() => {
    if (result?.entries !== undefined) onFirstResult?.();
  }, [result, onFirstResult]);

  if (!ended) return null;
  if (!result)
    return (
      <p className={compact ? 'muted tile-note' : 'muted'} role="status">
        Loading results…
      </p>
    );
  if (result.error)
    return (
      <p className={compact ? 'tile-problem' : 'error'} role="alert">
        Could not read the results: {result.error}
      </p>
    );
  const actions = compact ? null : <ResultActions downloads={downloads} />;
  switch (session.renderer) {
    case 'table':
      return <TableView result={(result.entries ?? { Columns: [], Rows: [] }) as TableResult} downloads={compact ? [] : downloads} compact={compact} />;
    case 'chart':
      return (
        <>
          {actions}
          <ChartView
            result={(result.entries ?? { Names: [], Values: [] }) as ChartResult}
            type={chart.type}
            options={chart.options}
            onType={chart.onType ?? noop}
            onOptions={chart.onOptions ?? noop}
            compact={compact}
            onZoom={compact ? onZoom : undefined}
          />
        </>
      );
    case 'gauge':
    case 'numbercard':
      return (
        <>
          {actions}
          <GaugeView values={(result.entries ?? []) as GaugeValue[]} card={session.renderer === 'numbercard' || !!card} />
        </>
      );
    default:
      return compact ? (
        <p className="muted tile-note">The console cannot draw the {session.renderer} renderer in a tile yet; open the search to download its results.</p>
      ) : (
        <div>
          <p>The console cannot draw the {session.renderer} renderer yet; download the results instead.</p>
          <DownloadLinks links={downloads} />
        </div>
      );
  }
}
