/** `table [-nt] [col ...]`: one row per entry, cells are strings; default columns = every EV seen. */
import { ArgReader } from '../args';
import { pushAll } from '../arrays';
import { Token } from '../lexer';
import { Entry } from '../types';
import { evToString, formatTs, getEV } from '../values';
import { byTimeDesc, RendererDef, RendererInstance } from './renderer';

export const tableRenderer: RendererDef = {
  name: 'table',
  description: 'Show enumerated values as a table (columns default to every EV seen)',
  examples: ['table', 'table src count', 'stats count by user | table user count'],
  formats: ['csv', 'json'],
  condensing: true,
  build(args: Token[]): RendererInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ nt: 'bool' });
    const cols: string[] = [];
    while (!r.done) cols.push(r.value('column name'));
    return {
      consumed: cols,
      nonTemporal: flags.nt === true,
      create(rt, opts) {
        const kept: Entry[] = [];
        return {
          push: (entries) => pushAll(kept, entries),
          result() {
            const rows = opts.timeOrder ? [...kept].sort(byTimeDesc) : kept;
            const columns = cols.length ? cols : [...new Set(rows.flatMap((e) => [...e.evs.keys()]))];
            return {
              kind: 'table',
              EntryCount: kept.length,
              Entries: {
                Columns: columns,
                Rows: rows.map((e) => ({
                  TS: formatTs(e.ts),
                  Row: columns.map((c) => {
                    const v = getEV(e, c, rt);
                    return v === undefined ? '' : evToString(v);
                  }),
                })),
              },
            };
          },
        };
      },
    };
  },
};
