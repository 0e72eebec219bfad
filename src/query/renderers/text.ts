/** `text` and `raw`: the entries themselves, newest first unless a module ordered them. */
import { ArgReader } from '../args';
import { pushAll } from '../arrays';
import { Token } from '../lexer';
import { Entry } from '../types';
import { byTimeDesc, RendererDef, RendererInstance } from './renderer';

function entriesRenderer(name: string, description: string): RendererDef {
  return {
    name,
    description,
    examples: [`tag=syslog grep error | ${name}`],
    formats: ['text', 'json', 'csv', 'archive'],
    condensing: false,
    build(args: Token[]): RendererInstance {
      new ArgReader(args).end();
      return {
        consumed: [],
        create(_rt, opts) {
          const kept: Entry[] = [];
          let count = 0;
          return {
            push(entries) {
              count += entries.length;
              if (opts.retainEntries) pushAll(kept, entries);
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
