import { FormEvent, useState } from 'react';
import { Dialog, FormFooter } from '../ui/Dialog';
import type { RendererOptions } from '../search/results/chart-options';
import { CHART_RENDERERS, chartTypeOf, GRID_COLS, TileView } from './dashboard-data';

const CHART_LABELS: Record<string, string> = { line: 'Line', area: 'Area', bar: 'Bar', pie: 'Pie' };

/** A tile's title, chart type and renderer options (the contract's `rendererOptions` keys). */
export function TileDialog({
  tile,
  isChart,
  onApply,
  onClose,
}: {
  tile: TileView;
  /** its search draws a chart (chart types and chart options apply) */
  isChart: boolean;
  onApply(patch: { title: string; renderer: string; rendererOptions: RendererOptions; size: { col: number; row: number } }): void;
  onClose(): void;
}) {
  const [error, setError] = useState<string>();
  const o = tile.options;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const title = String(f.get('title') ?? '').trim();
    if (!title) return setError('Give the tile a title.');
    const options: RendererOptions = { ...o };
    const flag = <K extends keyof RendererOptions>(key: K, on: boolean, value: RendererOptions[K]) => {
      if (on) options[key] = value;
      else delete options[key];
    };
    if (isChart) {
      flag('Stack', f.get('stack') === 'on', 'stacked');
      flag('Smoothing', f.get('smooth') === 'on', 'smooth');
      flag('Orientation', f.get('horizontal') === 'on', 'h');
      flag('LogScale', f.get('log') === 'on', 'yes');
      flag('ConnectNulls', f.get('connect') === 'on', 'yes');
      flag('Labels', f.get('nolabels') === 'on', 'no');
    }
    const col = Number(f.get('col'));
    const row = Number(f.get('row'));
    if (!(Number.isInteger(col) && col >= 1 && col <= GRID_COLS)) return setError(`The width is 1 to ${GRID_COLS} columns.`);
    if (!(Number.isInteger(row) && row >= 1 && row <= 60)) return setError('The height is 1 to 60 rows.');
    onApply({ title, renderer: isChart ? String(f.get('renderer')) : tile.renderer, rendererOptions: options, size: { col, row } });
  }
  return (
    <Dialog title="Tile settings" onClose={onClose}>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Title
          <input name="title" defaultValue={tile.title} maxLength={200} required data-autofocus />
        </label>
        <div className="size-fields">
          <label>
            Width (of {GRID_COLS} columns)
            <input name="col" type="number" min={1} max={GRID_COLS} defaultValue={tile.span.col} required />
          </label>
          <label>
            Height (rows)
            <input name="row" type="number" min={1} max={60} defaultValue={tile.span.row} required />
          </label>
        </div>
        {isChart ? (
          <>
            <label>
              Chart type
              <select name="renderer" defaultValue={chartTypeOf(tile.renderer)}>
                {CHART_RENDERERS.map((r) => (
                  <option key={r} value={r}>
                    {CHART_LABELS[r]}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="group-choices">
              <legend>Chart options</legend>
              <label className="check">
                <input type="checkbox" name="stack" defaultChecked={o.Stack === 'stacked'} /> Stacked
              </label>
              <label className="check">
                <input type="checkbox" name="smooth" defaultChecked={o.Smoothing === 'smooth'} /> Smooth
              </label>
              <label className="check">
                <input type="checkbox" name="horizontal" defaultChecked={o.Orientation === 'h'} /> Horizontal bars
              </label>
              <label className="check">
                <input type="checkbox" name="log" defaultChecked={o.LogScale === 'yes'} /> Log scale
              </label>
              <label className="check">
                <input type="checkbox" name="connect" defaultChecked={o.ConnectNulls === 'yes'} /> Connect gaps
              </label>
              <label className="check">
                <input type="checkbox" name="nolabels" defaultChecked={o.Labels === 'no'} /> Hide the legend
              </label>
            </fieldset>
          </>
        ) : (
          <p className="muted small">This tile shows its search's {tile.renderer || 'own'} results; only charts have drawing options.</p>
        )}
        <FormFooter error={error} submit="Apply" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
