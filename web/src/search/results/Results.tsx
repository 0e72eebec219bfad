import { useEffect, useState } from 'react';
import { ChartResult, GaugeValue, SearchEntry, TableResult } from '../../api/types';
import { SearchSession, SessionState } from '../search-session';
import { ChartType, RendererOptions } from './chart-options';
import { ChartView } from './ChartView';
import { DownloadLinks } from './DownloadLinks';
import { EntryList } from './EntryList';
import { GaugeView } from './GaugeView';
import { Histogram } from './Histogram';
import { TableView } from './TableView';

export const ENTRY_RENDERERS = new Set(['text', 'raw', 'hex']);

export interface ResultsProps {
  session: SearchSession;
  state: SessionState;
  renderers: ReadonlySet<string>;
  chart: { type: ChartType; options: RendererOptions; onType(t: ChartType): void; onOptions(o: RendererOptions): void };
  onZoom?(start: Date, end: Date): void;
  onFirstResult(): void;
}

/** The results of a search, drawn as its renderer says. */
export function Results({ session, state, renderers, chart, onZoom, onFirstResult }: ResultsProps) {
  const renderer = session.renderer;
  const downloads = (state.info.RenderDownloadFormats ?? []).map((format) => ({ format, href: session.downloadUrl(format) }));
  const count = state.stats?.EntryCount ?? 0;
  const ended = state.phase === 'finished' || state.phase === 'stopped';

  useEffect(() => {
    if (ended && count === 0) onFirstResult();
  }, [ended, count, onFirstResult]);

  if (ENTRY_RENDERERS.has(renderer)) {
    return (
      <div className="results">
        {state.phase === 'finished' && !state.info.TimeZoomDisabled && count > 0 && (
          <Histogram info={state.info} renderers={renderers} onZoom={state.info.QueryTimeSpecified ? undefined : onZoom} />
        )}
        <div className="toolbar" role="toolbar" aria-label="Result actions">
          <DownloadLinks links={downloads} />
        </div>
        {count === 0 && ended ? (
          <p className="empty">No entries matched in this time range.</p>
        ) : (
          <EntryList searchId={session.id} count={count} fetchPage={(a, b) => session.page<SearchEntry[]>(a, b)} onFirstRow={onFirstResult} />
        )}
      </div>
    );
  }
  return <Condensed session={session} state={state} downloads={downloads} chart={chart} onFirstResult={onFirstResult} />;
}

function Condensed({ session, state, downloads, chart, onFirstResult }: Omit<ResultsProps, 'renderers' | 'onZoom'> & { downloads: Array<{ format: string; href: string }> }) {
  const [result, setResult] = useState<{ entries?: unknown; error?: string }>();
  const ended = state.phase === 'finished' || state.phase === 'stopped';
  useEffect(() => {
    if (!ended) return;
    let live = true;
    session.page<unknown>().then(
      (p) => live && setResult({ entries: p.Entries }),
      (err: Error) => live && setResult({ error: err.message }),
    );
    return () => {
      live = false;
    };
  }, [ended, session]);
  useEffect(() => {
    if (result?.entries !== undefined) onFirstResult();
  }, [result, onFirstResult]);

  if (!ended) return null;
  if (!result)
    return (
      <p className="muted" role="status">
        Loading results…
      </p>
    );
  if (result.error)
    return (
      <p className="error" role="alert">
        Could not read the results: {result.error}
      </p>
    );
  switch (session.renderer) {
    case 'table':
      return <TableView result={result.entries as TableResult} downloads={downloads} />;
    case 'chart':
      return (
        <>
          <div className="toolbar" role="toolbar" aria-label="Result actions">
            <DownloadLinks links={downloads} />
          </div>
          <ChartView result={result.entries as ChartResult} {...chart} />
        </>
      );
    case 'gauge':
    case 'numbercard':
      return (
        <>
          <div className="toolbar" role="toolbar" aria-label="Result actions">
            <DownloadLinks links={downloads} />
          </div>
          <GaugeView values={result.entries as GaugeValue[]} card={session.renderer === 'numbercard'} />
        </>
      );
    default:
      return (
        <div>
          <p>The console cannot draw the {session.renderer} renderer yet; download the results instead.</p>
          <DownloadLinks links={downloads} />
        </div>
      );
  }
}
