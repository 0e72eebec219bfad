/**
 * `wordcloud <magnitude EV> [by A B ...]`: words sized by a keyed magnitude, e.g.
 * `stats count by Appname | wordcloud count`. The words are the values of the keys the last keyed
 * condensing module grouped by (joined with a space when there are several), or of the `by` EVs,
 * which re-condenses (summed for count/sum/total, min/max for min/max, else averaged). Without keys
 * the one word is the magnitude's name. The result has the gauge shape: `[{Name, Magnitude, Min,
 * Max}]`, biggest first, Min and Max being the smallest and largest magnitudes of all words.
 * More than SEARCH_RENDER_MAX_ROWS words end the search.
 */
import { ArgReader } from '../args';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { evToNumber, evToString, getEV } from '../values';
import { Cell, combine, finalValue } from './chart-cells';
import { RendererDef, RendererInstance } from './renderer';

export const wordcloudRenderer: RendererDef = {
  name: 'wordcloud',
  description: 'Words sized by a keyed magnitude: wordcloud <magnitude EV> [by EV ...]',
  examples: ['stats count by Appname | wordcloud count', 'stats count by Appname Hostname | wordcloud count by Hostname'],
  formats: ['json', 'csv', 'archive'],
  kind: 'gauge',
  build(args: Token[]): RendererInstance {
    const r = new ArgReader(args);
    const magnitude = r.value('magnitude EV');
    const by: string[] = [];
    if (r.accept('by')) while (!r.done) by.push(r.value('EV name after "by"'));
    r.end();
    return {
      consumed: [magnitude, ...by],
      nonTemporal: true,
      create(rt, opts) {
        const keys = by.length ? by : opts.keys;
        const words = new Map<string, Cell>();
        const limit = rt.limits.renderRows;
        let count = 0;
        return {
          push(entries) {
            count += entries.length;
            for (const e of entries) {
              const x = evToNumber(getEV(e, magnitude, rt));
              if (x === null) continue;
              const parts: string[] = [];
              for (const k of keys) {
                const v = getEV(e, k, rt);
                if (v === undefined) break;
                parts.push(evToString(v));
              }
              if (parts.length !== keys.length) continue;
              const word = keys.length ? parts.join(' ') : magnitude;
              const cell = words.get(word);
              if (!cell && words.size >= limit) throw limitExceeded('wordcloud', limit, 'words', LIMIT_VARIABLES.renderRows);
              words.set(word, combine(magnitude, cell, { v: x, n: 1 }));
            }
          },
          result() {
            const out = [...words].map(([Name, c]) => ({ Name, Magnitude: finalValue(magnitude, c) }));
            out.sort((a, b) => b.Magnitude - a.Magnitude || (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
            let min = 0;
            let max = 0;
            if (out.length) {
              min = out[out.length - 1].Magnitude;
              max = out[0].Magnitude;
            }
            return { kind: 'gauge', EntryCount: count, Entries: out.map((w) => ({ ...w, Min: min, Max: max })) };
          },
        };
      },
    };
  },
};
