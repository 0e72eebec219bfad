import { useEffect, useState, useSyncExternalStore } from 'react';
import { ChartResult, GaugeValue, SearchEntry, TableResult } from '../api/types';
import { ChartView } from '../search/results/ChartView';
import { EntryList } from '../search/results/EntryList';
import { GaugeView } from '../search/results/GaugeView';
import { ENTRY_RENDERERS } from '../search/results/Results';
import { TableView } from '../search/results/TableView';
import { SearchSession } from '../search/search-session';
import { SideEffectConsent } from '../ui/SideEffectConsent';
import { formatCount } from '../ui/time-format';
import { chartTypeOf, TileView } from './dashboard-data';
import { SearchSlot } from './dashboard-runner';

const noop = () => () => undefined;
const none = () => undefined;

/**
 * What a tile shows: its search's results drawn by the search page's own renderers, or why not;
 * or, for a query someone else wrote that would change the viewer's data, what it would change
 * and "Run it anyway" (`onConfirm`).
 */
export function TileBody({ tile, slot, onZoom, onConfirm }: { tile: TileView; slot?: SearchSlot; onZoom?(start: Date, end: Date): void; onConfirm(): void }) {
  const session = slot?.session;
  const state = useSyncExternalStore(session?.subscribe ?? noop, session?.getSnapshot ?? none);
  if (tile.problem)
    return (
      <p className="tile-problem" role="alert">
        {tile.problem}
      </p>
    );
  if (slot?.consent) return <SideEffectConsent why="Someone else wrote this query." effects={slot.consent.effects} refusal={slot.consent.refusal} onRun={onConfirm} compact />;
  if (slot?.error && !session)
    return (
      <p className="tile-problem" role="alert">
        {slot.error}
      </p>
    );
  if (!session || !state)
    return (
      <p className="muted tile-note" role="status">
        Starting the search…
      </p>
    );
  if (state.phase === 'failed')
    return (
      <p className="tile-problem" role="alert">
        The search failed: {state.error}
      </p>
    );
  if (state.phase === 'running')
    return (
      <p className="muted tile-note" role="status">
        Searching… {formatCount(state.stats?.EntryCount ?? 0)} entries so far
      </p>
    );
  const count = state.stats?.EntryCount ?? 0;
  if (ENTRY_RENDERERS.has(session.renderer)) {
    if (count === 0) return <p className="muted tile-note">No entries matched in this time range.</p>;
    return <EntryList searchId={session.id} count={count} fetchPage={(a, b) => session.page<SearchEntry[]>(a, b)} />;
  }
  return <Condensed key={session.id} session={session} tile={tile} onZoom={onZoom} />;
}

function Condensed({ session, tile, onZoom }: { session: SearchSession; tile: TileView; onZoom?(start: Date, end: Date): void }) {
  const [result, setResult] = useState<{ entries?: unknown; error?: string }>();
  useEffect(() => {
    let live = true;
    session.page<unknown>().then(
      (p) => live && setResult({ entries: p.Entries }),
      (err: Error) => live && setResult({ error: err.message }),
    );
    return () => {
      live = false;
    };
  }, [session]);
  if (!result)
    return (
      <p className="muted tile-note" role="status">
        Loading results…
      </p>
    );
  if (result.error)
    return (
      <p className="tile-problem" role="alert">
        Could not read the results: {result.error}
      </p>
    );
  switch (session.renderer) {
    case 'table':
      return <TableView result={(result.entries ?? { Columns: [], Rows: [] }) as TableResult} downloads={[]} compact />;
    case 'chart':
      return (
        <ChartView
          result={(result.entries ?? { Names: [], Values: [] }) as ChartResult}
          type={chartTypeOf(tile.renderer)}
          options={tile.options}
          onType={() => undefined}
          onOptions={() => undefined}
          compact
          onZoom={onZoom}
        />
      );
    case 'gauge':
    case 'numbercard':
      return <GaugeView values={(result.entries ?? []) as GaugeValue[]} card={session.renderer === 'numbercard' || tile.renderer === 'numbercard'} />;
    default:
      return <p className="muted tile-note">The console cannot draw the {session.renderer} renderer in a tile yet; open the search to download its results.</p>;
  }
}
