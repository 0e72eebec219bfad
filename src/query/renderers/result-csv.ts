/**
 * CSV as every download writes it (RFC 4180: CRLF line ends, a cell quoted when it holds a quote,
 * comma, CR or LF), and the rows of each condensed result kind, header first.
 */
import { assertUnreachable, CondensedResult, PointmapValue, StackGraphSet } from './renderer';

function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV record with its CRLF. */
export const csvLine = (row: readonly string[]): string => row.map(csvCell).join(',') + '\r\n';

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
  for (const p of points)
    for (const kv of p.Metadata ?? [])
      for (const k of Object.keys(kv))
        if (!seen.has(k)) {
          seen.add(k);
          names.push(k);
        }
  const rows = [['Lat', 'Long', ...names]];
  for (const p of points) {
    const md = new Map((p.Metadata ?? []).flatMap((kv) => Object.entries(kv)));
    rows.push([String(p.Loc.Lat), String(p.Loc.Long), ...names.map((n) => md.get(n) ?? '')]);
  }
  return rows;
}

/**
 * The CSV rows of a condensed result, header first: table `<columns>`; chart `TIMESTAMP,<names>`;
 * gauge, numbercard and wordcloud `Name,Magnitude,Min,Max`; stackgraph `Key,Label,Value`;
 * pointmap `Lat,Long,<metadata names>`.
 */
export function resultCsvRows(r: CondensedResult): string[][] {
  switch (r.kind) {
    case 'table':
      return [r.Entries.Columns, ...r.Entries.Rows.map((row) => row.Row)];
    case 'chart':
      return [['TIMESTAMP', ...r.Entries.Names], ...r.Entries.Values.map((v) => [v.TS, ...v.Data.map((d) => (d === null ? '' : String(d)))])];
    case 'gauge':
      return [['Name', 'Magnitude', 'Min', 'Max'], ...r.Entries.map((g) => [g.Name, String(g.Magnitude), String(g.Min), String(g.Max)])];
    case 'stackgraph':
      return stackgraphCsvRows(r.Entries);
    case 'pointmap':
      return pointmapCsvRows(r.Entries);
    default:
      return assertUnreachable(r);
  }
}
