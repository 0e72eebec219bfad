import { useSyncExternalStore } from 'react';
import { ResultView } from '../search/results/ResultView';
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
  if (slot?.waiting && !session)
    return (
      <p className="muted tile-note" role="status">
        {slot.waiting}
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
  return (
    <ResultView session={session} state={state} compact chart={{ type: chartTypeOf(tile.renderer), options: tile.options }} card={tile.renderer === 'numbercard'} onZoom={onZoom} />
  );
}
