import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { RendererPage, SearchEntry } from '../../api/types';
import { Matched } from '../../actionables/ValueActions';
import { usePrefs } from '../../prefs/PrefsContext';
import { formatCount, formatTime } from '../../ui/time-format';
import { EntryRow } from './decode';
import { EntryPages } from './entry-pages';
import { ScrollMotion } from './scroll-motion';

export interface EntryListProps {
  /** the search; a new value starts a new list */
  searchId: string;
  count: number;
  fetchPage(first: number, last: number): Promise<RendererPage<SearchEntry[]>>;
  /** called once, when the first row is on screen */
  onFirstRow?(): void;
}

/**
 * Entries as a virtualised table (timestamp, tag, source, data): only the rows on screen exist in
 * the page, pages of the render store load as they scroll into view. Data is text, always.
 */
export function EntryList({ searchId, count, fetchPage, onFirstRow }: EntryListProps) {
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const pages = useMemo(() => new EntryPages(fetchPage, bump), [searchId]); // eslint-disable-line react-hooks/exhaustive-deps -- a new search starts a new list, a new fetchPage function does not
  const motion = useMemo(() => new ScrollMotion(bump), []);
  useEffect(() => {
    pages.open();
    return () => pages.close();
  }, [pages]);
  useEffect(() => () => motion.dispose(), [motion]);
  const scroller = useRef<HTMLDivElement>(null);
  const { prefs } = usePrefs();
  // Rows have one height (two lines of data) so scrolling costs no layout; an opened row shows
  // the whole entry and is measured.
  const v = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize, overscan: 4 });
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback(
    (i: number) =>
      setOpen((o) => {
        const next = new Set(o);
        if (next.has(i)) {
          next.delete(i);
          v.resizeItem(i, ROW_HEIGHT);
        } else next.add(i);
        return next;
      }),
    [v],
  );
  const items = v.getVirtualItems();
  // After each render: fetch what is on screen and the pages next to it (the first page too,
  // whose arrival is timed), unless the list is flying past rows nobody can read.
  useEffect(() => {
    pages.ensure(0, 1, count);
    if (!items.length) return;
    const from = items[0].index;
    const to = items[items.length - 1].index + 1;
    if (motion.update(from)) return;
    pages.ensure(from, to, count);
    pages.ensure(from - PREFETCH_ROWS, to + PREFETCH_ROWS, count);
  });
  const first = count > 0 ? pages.peek(0) : undefined;
  const reported = useRef(false);
  useEffect(() => {
    if (first && !reported.current) {
      reported.current = true;
      onFirstRow?.();
    }
  }, [first, onFirstRow]);

  return (
    <div className="entry-table" role="table" aria-label="Entries" aria-rowcount={count + 1}>
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="entry-row header">
          <span role="columnheader">Timestamp</span>
          <span role="columnheader">Tag</span>
          <span role="columnheader">Source</span>
          <span role="columnheader">Data</span>
        </div>
      </div>
      <div role="rowgroup" className="entry-scroll" ref={scroller} tabIndex={0} aria-label={`${formatCount(count)} entries, scrollable`}>
        <div className="entry-sizer" style={{ height: v.getTotalSize() }}>
          {items.map((item) => {
            const isOpen = open.has(item.index);
            // Keyed by a slot that a row leaving the screen hands to the one coming in: the
            // browser updates its text instead of building and dropping elements every frame.
            return (
              <Row
                key={item.index % SLOTS}
                index={item.index}
                start={item.start}
                row={pages.peek(item.index)}
                zone={prefs.timeZone}
                open={isOpen}
                onToggle={toggle}
                measure={isOpen ? v.measureElement : undefined}
              />
            );
          })}
        </div>
      </div>
      {pages.error && (
        <p className="error" role="alert">
          Could not load entries: {pages.error}
        </p>
      )}
    </div>
  );
}

const ROW_HEIGHT = 48;
const estimateSize = () => ROW_HEIGHT;
/** more than the rows ever on screen at once (overscan included) */
const SLOTS = 256;
/** rows above and below the screen whose pages load ahead of the scrolling */
const PREFETCH_ROWS = 200;

interface RowProps {
  index: number;
  start: number;
  row: EntryRow | undefined;
  zone: string;
  open: boolean;
  onToggle(index: number): void;
  measure?: (el: HTMLDivElement | null) => void;
}

/** One entry; renders again only when its entry, place, zone or openness changes. */
const Row = memo(function Row({ index, start, row, zone, open, onToggle, measure }: RowProps) {
  return (
    <div data-index={index} ref={measure} role="row" aria-rowindex={index + 2} className={open ? 'entry-row open' : 'entry-row'} style={{ transform: `translateY(${start}px)` }}>
      {row ? (
        <Cells row={row} zone={zone} open={open} onToggle={() => onToggle(index)} />
      ) : (
        <span role="cell" className="muted loading-row">
          Loading entry {formatCount(index + 1)}…
        </span>
      )}
    </div>
  );
});

/** The shown time of a row, formatted once per time zone (Intl formatting is the slow part). */
function shownTime(row: EntryRow & { shown?: [string, string] }, zone: string): string {
  if (row.shown?.[0] !== zone) row.shown = [zone, formatTime(row.ts, zone)];
  return row.shown[1];
}

function Cells({ row, zone, open, onToggle }: { row: EntryRow; zone: string; open: boolean; onToggle(): void }) {
  return (
    <>
      <span role="cell" className="ts">
        <button type="button" className="link" aria-expanded={open} title={`${row.ts}: ${open ? 'show two lines' : 'show the whole entry'}`} onClick={onToggle}>
          {shownTime(row, zone)}
        </button>
      </span>
      <span role="cell" className="tag">
        {row.tag}
      </span>
      <span role="cell" className="src">
        <Matched text={row.src} />
      </span>
      <span role="cell" className="data">
        <Matched text={row.data} />
        {row.cut > 0 && <span className="muted"> … {formatCount(row.cut)} more characters (download the results to read all)</span>}
        {row.evs.length > 0 && (
          <span className="evs">
            {row.evs.map(([k, val], i) => (
              <span key={i} className="ev">
                <span className="ev-name">{k}</span>=<Matched text={val} />
              </span>
            ))}
          </span>
        )}
      </span>
    </>
  );
}
