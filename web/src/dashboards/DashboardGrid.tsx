import React, { ReactNode, useMemo } from 'react';
import ReactGridLayout, { Layout, useContainerWidth, verticalCompactor } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { GRID_COLS, ROW_HEIGHT, Span, TileView } from './dashboard-data';

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
  const layout = useMemo<Layout>(() => tiles.map((t) => ({ i: t.key, x: t.span.x, y: t.span.y, w: t.span.col, h: t.span.row, minW: 2, minH: 2 })), [tiles]);
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
          gridConfig={{ cols: GRID_COLS, rowHeight: ROW_HEIGHT, margin: [gutter, gutter], containerPadding: [margin, margin] }}
          dragConfig={{ enabled: editable, handle: '.tile-drag', cancel: 'button, a, input, select' }}
          resizeConfig={{
            enabled: editable,
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
