/**
 * `gauge EV ...` / `gauge (EV min max "Label") ...` and `numbercard` (same syntax).
 * Magnitude = the EV of the newest entry (last one on ties); Min defaults to 0, Max to a round
 * number at or above the magnitude.
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, ModuleArgError } from '../types';
import { evToNumber, getEV } from '../values';
import { GaugeValue, RendererDef, RendererInstance } from './renderer';

interface GaugeSpec {
  ev: string;
  min?: number;
  max?: number;
  label?: string;
}

/** Smallest 1/2/5 x 10^k that is >= |x| (0 stays 0). */
export function niceCeil(x: number): number {
  const a = Math.abs(x);
  if (a === 0) return 0;
  const p = Math.pow(10, Math.floor(Math.log10(a)));
  const m = [1, 2, 5, 10].find((f) => f * p >= a)!;
  return m * p;
}

function num(r: ArgReader, what: string): number {
  const t = r.value(what);
  const n = evToNumber(t);
  if (n === null) throw new ModuleArgError(`invalid ${what} "${t}"`);
  return n;
}

function parseGaugeArgs(args: Token[]): GaugeSpec[] {
  const r = new ArgReader(args);
  const specs: GaugeSpec[] = [];
  while (!r.done) {
    if (r.peek()!.kind !== 'lparen') {
      specs.push({ ev: r.value('EV name') });
      continue;
    }
    r.next();
    const spec: GaugeSpec = { ev: r.value('EV name') };
    if (r.peek()?.kind !== 'rparen') spec.min = num(r, 'minimum');
    if (r.peek()?.kind !== 'rparen') spec.max = num(r, 'maximum');
    if (r.peek()?.kind !== 'rparen') spec.label = r.value('label');
    if (r.next()?.kind !== 'rparen') throw new ModuleArgError('missing ")"');
    specs.push(spec);
  }
  if (specs.length === 0) throw new ModuleArgError('missing EV argument');
  return specs;
}

function makeGaugeRenderer(name: string, description: string): RendererDef {
  return {
    name,
    description,
    examples: [`stats mean(latency) | ${name} mean`, `${name} (mean 0 100 "Latency")`],
    formats: ['json', 'csv', 'archive'],
    kind: 'gauge',
    build(args: Token[]): RendererInstance {
      const specs = parseGaugeArgs(args);
      return {
        consumed: specs.map((s) => s.ev),
        nonTemporal: true,
        create(rt) {
          let count = 0;
          const latest = new Map<string, { ts: number; v: number }>();
          const take = (e: Entry) => {
            for (const s of specs) {
              const v = evToNumber(getEV(e, s.ev, rt));
              const old = latest.get(s.ev);
              if (v !== null && (!old || e.ts >= old.ts)) latest.set(s.ev, { ts: e.ts, v });
            }
          };
          return {
            push(entries) {
              count += entries.length;
              entries.forEach(take);
            },
            result() {
              const values: GaugeValue[] = specs.map((s) => {
                const m = latest.get(s.ev)?.v ?? 0;
                return { Name: s.label ?? s.ev, Magnitude: m, Min: s.min ?? 0, Max: s.max ?? niceCeil(m) };
              });
              return { kind: 'gauge', EntryCount: count, Entries: values };
            },
          };
        },
      };
    },
  };
}

export const gaugeRenderer = makeGaugeRenderer('gauge', 'Show one or more values as gauges');
export const numbercardRenderer = makeGaugeRenderer('numbercard', 'Show one or more values as number cards');
