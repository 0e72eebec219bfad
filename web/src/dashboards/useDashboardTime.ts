import { useCallback, useState } from 'react';
import { TimeRange } from '../search/time-range';

const DEFAULT_RANGE: TimeRange = { kind: 'relative', preset: '1h' };

/**
 * The time a dashboard's searches run over: `range`, which is the dashboard's own until the person
 * picks one for every tile (`chosen`: then it overrides each search's own timeframe), and the
 * ranges of tiles zoomed on their own (`zoomed`, by search index).
 */
export function useDashboardTime() {
  const [range, setRange] = useState<TimeRange>(DEFAULT_RANGE);
  const [chosen, setChosen] = useState(false);
  const [zoomed, setZoomed] = useState<ReadonlyMap<number, TimeRange>>(new Map());

  /** Back to the dashboard's own range (the last hour if it has none): a load, Reset time. */
  const follow = useCallback((own: TimeRange | undefined) => {
    setRange(own ?? DEFAULT_RANGE);
    setChosen(false);
    setZoomed(new Map());
  }, []);

  /** One range for every tile: the time picker, a linked zoom. */
  const choose = useCallback((r: TimeRange) => {
    setRange(r);
    setChosen(true);
    setZoomed(new Map());
  }, []);

  /**
   * A drag across a chart: every tile's range when zooming is linked (or the tile runs no search),
   * else only that tile's.
   */
  const zoom = useCallback(
    (searchIndex: number | undefined, linked: boolean) => (start: Date, end: Date) => {
      const r: TimeRange = { kind: 'absolute', start, end };
      if (linked || searchIndex === undefined) choose(r);
      else setZoomed((z) => new Map(z).set(searchIndex, r));
    },
    [choose],
  );

  /** The range on screen became the dashboard's own (Settings): it no longer overrides the searches'. */
  const adopt = useCallback(() => setChosen(false), []);

  return { range, chosen, zoomed, moved: chosen || zoomed.size > 0, follow, choose, zoom, adopt };
}
