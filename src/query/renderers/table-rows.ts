/**
 * What the table renderer holds: each row as it will be output (`{TS, Row}`, cells as strings)
 * and its time, never the entry (its data, its EV map). Rows without named columns also keep their "shape", the list of EV
 * names they had (interned: rows from one module share one), so the columns can be listed in the
 * order they first appear in the output. More than SEARCH_RENDER_MAX_ROWS rows end the search.
 */
import { HeldBytes } from '../held-bytes';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Entry, RuntimeContext } from '../types';
import { evToString, formatTs, getEV } from '../values';
import { Renderer, RenderOptions, TableResult } from './renderer';

interface Shape {
  names: string[];
  /** name -> position in the row's cells */
  index: Map<string, number>;
}

export class TableRows {
  private readonly ts: number[] = [];
  private readonly rows: Array<{ TS: string; Row: string[] }> = [];
  private readonly shapeOf: number[] = [];
  private readonly shapes: Shape[] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly held: HeldBytes;

  constructor(
    private readonly module: string,
    /** named columns; [] = every EV seen */
    private readonly cols: string[],
    private readonly rt: RuntimeContext,
  ) {
    this.held = new HeldBytes(module, rt, 'rows');
  }

  get count(): number {
    return this.ts.length;
  }

  push(entries: Entry[]): void {
    const limit = this.rt.limits.renderRows;
    if (this.ts.length + entries.length > limit) throw limitExceeded(this.module, limit, 'rows', LIMIT_VARIABLES.renderRows);
    for (const e of entries) {
      this.ts.push(e.ts);
      if (this.cols.length) {
        const Row = this.cols.map((c) => {
          const v = getEV(e, c, this.rt);
          return v === undefined ? '' : evToString(v);
        });
        this.hold(Row);
        this.rows.push({ TS: formatTs(e.ts), Row });
        continue;
      }
      const names: string[] = [];
      const values: string[] = [];
      for (const [k, v] of e.evs) {
        names.push(k);
        values.push(evToString(v));
      }
      this.hold(values);
      this.shapeOf.push(this.shape(names));
      this.rows.push({ TS: formatTs(e.ts), Row: values });
    }
  }

  /** A row: its object, time and array, plus each cell. */
  private hold(cells: string[]): void {
    let n = 120;
    for (const c of cells) n += 24 + c.length;
    this.held.addBytes(n);
  }

  private shape(names: string[]): number {
    const key = names.join('\u0000');
    let id = this.shapeIds.get(key);
    if (id === undefined) {
      id = this.shapes.length;
      this.shapes.push({ names, index: new Map(names.map((n, i) => [n, i])) });
      this.shapeIds.set(key, id);
    }
    return id;
  }

  /** Row indexes in output order: newest first (stable) when `timeOrder`, else as pushed. */
  private order(timeOrder: boolean): number[] {
    const order = Array.from({ length: this.ts.length }, (_v, i) => i);
    return timeOrder ? order.sort((a, b) => this.ts[b] - this.ts[a]) : order;
  }

  result(timeOrder: boolean): TableResult {
    if (this.cols.length) return { Columns: this.cols, Rows: timeOrder ? this.order(true).map((i) => this.rows[i]) : this.rows };
    const order = this.order(timeOrder);
    // Every EV seen, in the order they first appear in the output.
    const columns: string[] = [];
    const seenColumn = new Set<string>();
    const seenShape = new Set<number>();
    for (const i of order) {
      const s = this.shapeOf[i];
      if (seenShape.has(s)) continue;
      seenShape.add(s);
      for (const n of this.shapes[s].names)
        if (!seenColumn.has(n)) {
          seenColumn.add(n);
          columns.push(n);
        }
    }
    const same = this.shapes.map((shape) => shape.names.length === columns.length && shape.names.every((n, k) => columns[k] === n));
    const Rows = order.map((i) => {
      const s = this.shapeOf[i];
      if (same[s]) return this.rows[i];
      const shape = this.shapes[s];
      const { TS, Row } = this.rows[i];
      return { TS, Row: columns.map((c) => Row[shape.index.get(c) ?? -1] ?? '') };
    });
    return { Columns: columns, Rows };
  }
}

/** The table renderer's running part. */
export function createTableRenderer(cols: string[], rt: RuntimeContext, opts: RenderOptions): Renderer & { rows: TableRows } {
  const rows = new TableRows('table', cols, rt);
  return {
    rows,
    push: (entries) => rows.push(entries),
    result: () => ({ kind: 'table', EntryCount: rows.count, Entries: rows.result(opts.timeOrder) }),
  };
}
