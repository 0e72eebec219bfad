import React, { ReactNode, useMemo } from 'react';
import ReactGridLayout, { Layout, useContainerWidth, verticalCompactor } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { GRID_COLS, ROW_HEIGHT, Span, TileView } from './dashboard-data';

/** Below this width (px) the grid is one column: 16 columns would be under 40 px each. */
const NARROW_GRID = 640;

/** The tiles one under another, in the order a person reads the wide grid (top to bottom, left to right). */
function oneColumn(tiles: TileView[]): Layout {
  let y = 0;
  return [...tiles]
    .sort((a, b) => a.span.y - b.span.y || a.span.x - b.span.x)
    .map((t) => {
      const item = { i: t.key, x: 0, y, w: 1, h: t.span.row, static: true };
      y += t.span.row;
      return item;
    });
}

/**
 * The tiles on a grid of GRID_COLS columns, placed by their `span`, `grid.gutter` apart with
 * `grid.margin` around. When `editable`, a tile moves by its title bar and resizes by its corner;
 * each finished move or resize reports the spans of every tile (by tile index).
 */
export function DashboardGrid({
  tiles,
  gutter,
  margin,
  editable,
  onSpans,
  render,
}: {
  tiles: TileView[];
  gutter: number;
  margin: number;
  editable: boolean;
  onSpans(spans: Map<number, Span>): void;
  render(tile: TileView): ReactNode;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  // A phone-sized grid: one column, the tiles in reading order, each as tall as on the wide grid.
  // Nothing moves or resizes there, so the stored wide layout stays as it is.
  const narrow = width > 0 && width < NARROW_GRID;
  const layout = useMemo<Layout>(
    () => (narrow ? oneColumn(tiles) : tiles.map((t) => ({ i: t.key, x: t.span.x, y: t.span.y, w: t.span.col, h: t.span.row, minW: 2, minH: 2 }))),
    [tiles, narrow],
  );
  const movable = editable && !narrow;
  const done = (l: Layout) => {
    const spans = new Map<number, Span>();
    for (const item of l) {
      const t = tiles.find((x) => x.key === item.i);
      if (t) spans.set(t.index, { col: item.w, row: item.h, x: item.x, y: item.y });
    }
    onSpans(spans);
  };
  return (
    <div ref={containerRef} className="dashboard-grid">
      {/*
        react-draggable (under the grid) writes a <style> through innerHTML on the first drag
        unless an element with this ID exists; the console's Trusted Types policy refuses that
        write, and the drag would fail. Its one rule is in dashboards.css instead.
      */}
      <span id="react-draggable-style-el" hidden />
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: narrow ? 1 : GRID_COLS, rowHeight: ROW_HEIGHT, margin: [gutter, gutter], containerPadding: [margin, margin] }}
          dragConfig={{ enabled: movable, handle: '.tile-drag', cancel: 'button, a, input, select' }}
          resizeConfig={{
            enabled: movable,
            handles: ['se'],
            handleComponent: (axis, ref) => (
              <span ref={ref as React.Ref<HTMLSpanElement>} className={`react-resizable-handle react-resizable-handle-${axis}`} title="Drag to resize the tile" />
            ),
          }}
          compactor={verticalCompactor}
          onDragStop={(l) => done(l)}
          onResizeStop={(l) => done(l)}
        >
          {tiles.map((t) => (
            <div key={t.key} className="tile-cell">
              {render(t)}
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
