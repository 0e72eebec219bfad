/**
 * CSV rows and shape checks of the stackgraph and pointmap results, for the downloads and the
 * archive import (which handle table, chart and gauge results themselves).
 */
import { PointmapValue, StackGraphSet } from './renderer';

/** `Key,Label,Value`: one row per component of each bar. */
export function stackgraphCsvRows(sets: StackGraphSet[]): string[][] {
  const rows = [['Key', 'Label', 'Value']];
  for (const s of sets) for (const v of s.Values) rows.push([s.Key, v.Label, String(v.Value)]);
  return rows;
}

/** `Lat,Long,<metadata names in first-seen order>`: one row per point. */
export function pointmapCsvRows(points: PointmapValue[]): string[][] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const p of points) for (const kv of p.Metadata ?? []) for (const k of Object.keys(kv)) if (!seen.has(k)) (seen.add(k), names.push(k));
  const rows = [['Lat', 'Long', ...names]];
  for (const p of points) {
    const md = new Map((p.Metadata ?? []).flatMap((kv) => Object.entries(kv)));
    rows.push([String(p.Loc.Lat), String(p.Loc.Long), ...names.map((n) => md.get(n) ?? '')]);
  }
  return rows;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function isStackgraphEntries(e: unknown): e is StackGraphSet[] {
  return Array.isArray(e) && e.every((s) => isObj(s) && typeof s.Key === 'string' && Array.isArray(s.Values) && s.Values.every((v) => isObj(v) && typeof v.Label === 'string' && isNum(v.Value)));
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
