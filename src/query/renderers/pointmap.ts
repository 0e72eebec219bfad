/**
 * `pointmap [-loc EV | -lat EV -long EV] [EV ...]`: entries as points on a map. The location is
 * read from `Location` (or the `-loc` EV) as "lat long" / "lat,long" text or the product's 16-byte
 * encoding (two little-endian float64), or from separate `-lat`/`-long` numbers. The other EVs
 * named are the point's metadata (`{"<name>": "<value>"}`, in the order named). At most 1000
 * points, as the product's map shows: the newest ones, or the first ones after a module that
 * ordered the entries. Entries without a valid location are left out. (`heatmap` and the
 * geofence request of the product's map are not implemented.)
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { entryTieBreak, evToNumber, evToString, getEV } from '../values';
import { KeepBest } from '../modules/keep-best';
import { LimitError } from '../limits';
import { PointmapValue, RendererDef, RendererInstance } from './renderer';

export const MAX_POINTS = 1000;

interface Where {
  loc?: string;
  lat?: string;
  long?: string;
}

const valid = (lat: number, long: number) => Number.isFinite(lat) && Number.isFinite(long) && Math.abs(lat) <= 90 && Math.abs(long) <= 180;

/** A Location value: "lat long", "lat,long" or 16 bytes (two float64, little-endian). */
export function parseLocation(v: EVValue | undefined): { Lat: number; Long: number } | undefined {
  if (v === undefined) return undefined;
  if (Buffer.isBuffer(v) && v.length === 16) {
    const loc = { Lat: v.readDoubleLE(0), Long: v.readDoubleLE(8) };
    return valid(loc.Lat, loc.Long) ? loc : undefined;
  }
  const m = /^\s*([-+]?[\d.]+(?:[eE][-+]?\d+)?)\s*[,\s]\s*([-+]?[\d.]+(?:[eE][-+]?\d+)?)\s*$/.exec(evToString(v));
  if (!m) return undefined;
  const loc = { Lat: Number(m[1]), Long: Number(m[2]) };
  return valid(loc.Lat, loc.Long) ? loc : undefined;
}

function locate(e: Entry, where: Where, rt: RuntimeContext): { Lat: number; Long: number } | undefined {
  if (where.lat === undefined) return parseLocation(getEV(e, where.loc ?? 'Location', rt));
  const lat = evToNumber(getEV(e, where.lat, rt));
  const long = evToNumber(getEV(e, where.long!, rt));
  return lat !== null && long !== null && valid(lat, long) ? { Lat: lat, Long: long } : undefined;
}

export const pointmapRenderer: RendererDef = {
  name: 'pointmap',
  description: 'Entries as points on a map (location from Location, -loc EV or -lat/-long EVs); other EVs named show on click; at most 1000 points',
  examples: ['json IP Location | pointmap IP', 'json lat long host | pointmap -lat lat -long long host'],
  formats: ['json', 'csv', 'archive'],
  kind: 'pointmap',
  build(args: Token[]): RendererInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ loc: 'value', lat: 'value', long: 'value' });
    const where: Where = { loc: flags.loc as string | undefined, lat: flags.lat as string | undefined, long: flags.long as string | undefined };
    if ((where.lat === undefined) !== (where.long === undefined)) throw new ModuleArgError('-lat and -long go together');
    if (where.loc !== undefined && where.lat !== undefined) throw new ModuleArgError('use either -loc or -lat/-long');
    const meta: string[] = [];
    while (!r.done) meta.push(r.value('EV name'));
    const consumed = [...(where.lat !== undefined ? [where.lat, where.long!] : [where.loc ?? 'Location']), ...meta];
    return {
      consumed,
      create(rt, opts) {
        let count = 0;
        // Entries without a location never count towards the 1000.
        const newest = new KeepBest(MAX_POINTS, entryTieBreak, MAX_POINTS * 3, () => new LimitError('pointmap: unreachable'));
        const first: Entry[] = [];
        return {
          push(entries) {
            count += entries.length;
            for (const e of entries) {
              if (!locate(e, where, rt)) continue;
              if (opts.timeOrder) newest.add(e);
              else if (first.length < MAX_POINTS) first.push(e);
            }
          },
          result() {
            const points: PointmapValue[] = (opts.timeOrder ? newest.result() : first).map((e) => {
              const p: PointmapValue = { Loc: locate(e, where, rt)! };
              const md: Array<Record<string, string>> = [];
              for (const name of meta) {
                const v = getEV(e, name, rt);
                if (v !== undefined) md.push({ [name]: evToString(v) });
              }
              if (md.length) p.Metadata = md;
              return p;
            });
            return { kind: 'pointmap', EntryCount: count, Entries: points };
          },
        };
      },
    };
  },
};
