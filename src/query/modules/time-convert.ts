/**
 * `time [-iformat layout] [-oformat layout] [-tz zone] SOURCE TARGET`: formats the entry time (or a
 * TIMESTAMP EV) as text, or parses text into a timestamp, with Go layouts as the product does.
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { evToString, formatTs, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { formatGoTime, grindTime, parseGoTime, parseLayout, validZone } from './go-time';
import { checkName } from './transform-common';

/** The entry's time in µs: its own TIMESTAMP EV when a module set one, else the entry time. */
function timestampOf(e: { ts: number; evs: Map<string, unknown> }): number | undefined {
  const own = e.evs.get('TIMESTAMP');
  if (own === undefined) return e.ts;
  const t = grindTime(evToString(own as string), 'UTC', new Date(e.ts / 1000).getUTCFullYear());
  return t;
}

export const timeModule: ModuleDef = {
  name: 'time',
  info:
    'Convert between timestamps and text with Go layouts ("Mon Jan 2 15:04:05 MST 2006"): TIMESTAMP as the source is formatted with -oformat; any other source is parsed as text ' +
    '(with -iformat, else trying epoch seconds/ms/µs/ns and the common log formats) into a timestamp, written in RFC 3339 with microseconds, or into text when -oformat is given. ' +
    '-tz (tz database name, default UTC) is the zone for printing and for text without its own offset. Values that do not parse get no output',
  examples: [
    'time -oformat "Mon Jan _2 15:04:05 2006 MST" TIMESTAMP formattedTS',
    'time tsString extractedTS',
    'time -oformat "Mon Jan _2 15:04:05 2006 MST" -tz "America/Chicago" TIMESTAMP foo | time -iformat "Mon Jan _2 15:04:05 2006 MST" -tz "America/Chicago" foo bar',
  ],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { iformat: 'value', oformat: 'value', tz: 'value' });
    const zone = optionalString(f.tz) ?? 'UTC';
    if (!validZone(zone)) throw new ModuleArgError(`unknown time zone "${zone}" (use a tz database name such as America/Denver, UTC or Atlantic/Reykjavik)`);
    const iformat = optionalString(f.iformat);
    const oformat = optionalString(f.oformat);
    if (iformat === '' || oformat === '') throw new ModuleArgError('a format must not be empty');
    const inLayout = iformat === undefined ? undefined : parseLayout(iformat);
    const outLayout = oformat === undefined ? undefined : parseLayout(oformat);
    if (r.done) throw new ModuleArgError('missing source and target, e.g. time -oformat "Mon Jan _2 15:04:05 2006 MST" TIMESTAMP formattedTS');
    const source = checkName(r.value('source enumerated value name'), 'source enumerated value name');
    if (r.done) throw new ModuleArgError(`missing target enumerated value name after ${source}, e.g. time ${source} extractedTS`);
    const target = checkName(r.value('target enumerated value name'), 'target enumerated value name');
    r.end();
    if (target === 'DATA') throw new ModuleArgError('the target cannot be DATA');
    return {
      produced: [target],
      consumed: source === 'TIMESTAMP' ? [] : [source],
      process(e, rt) {
        let us: number | undefined;
        if (source === 'TIMESTAMP') us = timestampOf(e);
        else {
          const v = getEV(e, source, rt);
          if (v === undefined) return true;
          const text = evToString(v).trim();
          const year = new Date(e.ts / 1000).getUTCFullYear();
          us = inLayout ? parseGoTime(text, inLayout, zone, year) : grindTime(text, zone, year);
        }
        if (us === undefined || !Number.isFinite(us) || Math.abs(us) > 8.64e18) return true;
        e.evs.set(target, outLayout ? formatGoTime(us, outLayout, zone) : formatTs(us));
        return true;
      },
    };
  },
};
