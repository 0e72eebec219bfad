/** Shape checks of stackgraph and pointmap results, for the archive import (archive-schema.ts). */
import { PointmapValue, StackGraphSet } from './renderer';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function isStackgraphEntries(e: unknown): e is StackGraphSet[] {
  return (
    Array.isArray(e) &&
    e.every((s) => isObj(s) && typeof s.Key === 'string' && Array.isArray(s.Values) && s.Values.every((v) => isObj(v) && typeof v.Label === 'string' && isNum(v.Value)))
  );
}

export function isPointmapEntries(e: unknown): e is PointmapValue[] {
  return (
    Array.isArray(e) &&
    e.every(
      (p) =>
        isObj(p) &&
        isObj(p.Loc) &&
        isNum(p.Loc.Lat) &&
        isNum(p.Loc.Long) &&
        (p.Metadata === undefined || (Array.isArray(p.Metadata) && p.Metadata.every((kv) => isObj(kv) && Object.values(kv).every((v) => typeof v === 'string')))),
    )
  );
}
