/** `table [-nt] [col ...]`: one row per entry, cells are strings; default columns = every EV seen. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { TABLE_SAVE_FLAGS, tableSaveTarget } from '../lookup-table';
import { RendererDef, RendererInstance } from './renderer';
import { createTableRenderer } from './table-rows';

export const tableRenderer: RendererDef = {
  name: 'table',
  description: 'Show enumerated values as a table (columns default to every EV seen)',
  examples: ['table', 'table src count', 'stats count by user | table user count'],
  formats: ['csv', 'json'],
  kind: 'table',
  build(args: Token[]): RendererInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ nt: 'bool', ...TABLE_SAVE_FLAGS });
    const save = tableSaveTarget(flags);
    const cols: string[] = [];
    while (!r.done) cols.push(r.value('column name'));
    return {
      consumed: cols,
      nonTemporal: flags.nt === true,
      save,
      // Rows are kept as strings (table-rows.ts), at most SEARCH_RENDER_MAX_ROWS of them.
      create: (rt, opts) => createTableRenderer(cols, rt, opts),
    };
  },
};
