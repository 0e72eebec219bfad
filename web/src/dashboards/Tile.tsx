import { Link } from 'react-router';
import { searchLink } from '../ui/search-link';
import { TileView } from './dashboard-data';
import { SearchSlot } from './dashboard-runner';
import { TileBody } from './TileBody';

/** One tile: its title bar (the handle to move it, its actions) and its results. */
export function Tile({
  tile,
  slot,
  editable,
  onZoom,
  onConfirm,
  onSettings,
  onRemove,
}: {
  tile: TileView;
  slot?: SearchSlot;
  editable: boolean;
  onZoom?(start: Date, end: Date): void;
  /** the viewer agrees to the side effects of the tile's query */
  onConfirm(): void;
  onSettings(): void;
  onRemove(): void;
}) {
  return (
    <section className={tile.problem ? 'tile tile-broken' : 'tile'} aria-label={tile.title}>
      <header className={editable ? 'tile-head tile-drag' : 'tile-head'} title={editable ? 'Drag to move the tile' : undefined}>
        <h2 className="tile-title">{tile.title}</h2>
        {slot?.refreshing && (
          <span className="tile-busy" role="status" aria-label="Updating">
            ●
          </span>
        )}
        <div className="tile-actions" role="group" aria-label={`Actions for ${tile.title}`}>
          {slot?.query && (
            <Link className="button icon" to={searchLink(slot.query, true)} aria-label={`Open ${tile.title} in the search page`} title="Open in the search page">
              ↗
            </Link>
          )}
          {editable && (
            <>
              <button type="button" className="icon" onClick={onSettings} aria-label={`Tile settings of ${tile.title}`} title="Tile settings">
                ⚙
              </button>
              <button type="button" className="icon" onClick={onRemove} aria-label={`Remove ${tile.title}`} title="Remove the tile">
                ✕
              </button>
            </>
          )}
        </div>
      </header>
      <div className="tile-body">
        {slot?.error && slot.session && (
          <p className="tile-stale" role="alert">
            Not updated: {slot.error}
          </p>
        )}
        <TileBody tile={tile} slot={slot} onZoom={onZoom} onConfirm={onConfirm} />
      </div>
    </section>
  );
}
