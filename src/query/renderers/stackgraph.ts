/**
 * `stackgraph <bar EV> <component EV> <magnitude EV>`: horizontal bars (one per value of the first
 * EV) stacked from components (values of the second), sized by the third, e.g.
 * `sum traffic by Src Port | stackgraph Src Port sum`. Entries of the same bar and component are
 * re-condensed like chart cells (summed for count/sum/total, min/max for min/max, else averaged).
 * Bars come biggest first, their components biggest first; values are whole numbers (int64 in the
 * product's result type). More than SEARCH_RENDER_MAX_ROWS components in all end the search.
 */
import { ArgReader } from '../args';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { evToNumber, evToString, getEV } from '../values';
import { Cell, combine, finalValue } from './chart-cells';
import { RendererDef, RendererInstance, StackGraphSet } from './renderer';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const stackgraphRenderer: RendererDef = {
  name: 'stackgraph',
  description: 'Horizontal stacked bars: stackgraph <bar EV> <component EV> <magnitude EV>',
  examples: ['sum traffic by Src Port | stackgraph Src Port sum', 'count by host status | stackgraph host status count'],
  formats: ['json', 'csv', 'archive'],
  kind: 'stackgraph',
  build(args: Token[]): RendererInstance {
    const r = new ArgReader(args);
    const bar = r.value('bar EV (stackgraph <bar EV> <component EV> <magnitude EV>)');
    const part = r.value('component EV (stackgraph <bar EV> <component EV> <magnitude EV>)');
    const magnitude = r.value('magnitude EV (stackgraph <bar EV> <component EV> <magnitude EV>)');
    r.end();
    return {
      consumed: [bar, part, magnitude],
      nonTemporal: true,
      create(rt) {
        const bars = new Map<string, Map<string, Cell>>();
        let count = 0;
        let cells = 0;
        const limit = rt.limits.renderRows;
        return {
          push(entries) {
            count += entries.length;
            for (const e of entries) {
              const b = getEV(e, bar, rt);
              const p = getEV(e, part, rt);
              const x = evToNumber(getEV(e, magnitude, rt));
              if (b === undefined || p === undefined || x === null) continue;
              const key = evToString(b);
              let parts = bars.get(key);
              if (!parts) bars.set(key, (parts = new Map()));
              const label = evToString(p);
              const cell = parts.get(label);
              if (!cell && ++cells > limit) throw limitExceeded('stackgraph', limit, 'components', LIMIT_VARIABLES.renderRows);
              parts.set(label, combine(magnitude, cell, { v: x, n: 1 }));
            }
          },
          result() {
            const sets: Array<StackGraphSet & { total: number }> = [];
            for (const [Key, parts] of bars) {
              const Values = [...parts].map(([Label, c]) => ({ Label, Value: Math.round(finalValue(magnitude, c)) }));
              Values.sort((a, b) => b.Value - a.Value || byName(a.Label, b.Label));
              sets.push({ Key, Values, total: Values.reduce((t, v) => t + v.Value, 0) });
            }
            sets.sort((a, b) => b.total - a.total || byName(a.Key, b.Key));
            return { kind: 'stackgraph', EntryCount: count, Entries: sets.map(({ Key, Values }) => ({ Key, Values })) };
          },
        };
      },
    };
  },
};
