/**
 * `text`, `raw` and `hex`: the entries themselves, newest first unless a module ordered them (hex:
 * the console shows the data as uppercase hexadecimal bytes; the result is the same). Entries kept
 * in memory (a condensing query's output) are bounded by SEARCH_RENDER_MAX_ROWS.
 */
import { ArgReader } from '../args';
import { HeldBytes } from '../held-bytes';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { Entry } from '../types';
import { byTimeDesc, RendererDef, RendererInstance } from './renderer';

function entriesRenderer(name: string, description: string): RendererDef {
  return {
    name,
    description,
    examples: [`tag=syslog grep error | ${name}`],
    formats: ['text', 'json', 'csv', 'archive'],
    kind: 'entries',
    build(args: Token[]): RendererInstance {
      new ArgReader(args).end();
      return {
        consumed: [],
        create(rt, opts) {
          const kept: Entry[] = [];
          const held = new HeldBytes(name, rt);
          let count = 0;
          return {
            push(entries) {
              count += entries.length;
              if (!opts.retainEntries) return;
              const limit = rt.limits.renderRows;
              if (kept.length + entries.length > limit) throw limitExceeded(name, limit, 'entries', LIMIT_VARIABLES.renderRows);
              for (const e of entries) {
                held.add(e);
                kept.push(e);
              }
            },
            result() {
              const out = opts.timeOrder ? [...kept].sort(byTimeDesc) : kept;
              return { kind: 'entries', EntryCount: count, Entries: out };
            },
          };
        },
      };
    },
  };
}

export const textRenderer = entriesRenderer('text', 'Show entries as text, with their enumerated values');
export const rawRenderer = entriesRenderer('raw', 'Show entries unmodified (binary safe)');
export const hexRenderer = entriesRenderer('hex', 'Show entries with their data as uppercase hexadecimal bytes');
