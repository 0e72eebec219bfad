/** Finished results of a direct search in the requested download format. */
import { CompiledQuery, Entry, formatTs, RenderResult, toSearchEntry, evToString, stackgraphCsvRows, pointmapCsvRows } from '../query';

export interface Formatted {
  contentType: string;
  body: string | Buffer;
}

function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
/** One CSV record with its CRLF. */
export const csvLine = (row: string[]) => row.map(csvCell).join(',') + '\r\n';
const csvLines = (rows: string[][]) => rows.map(csvLine).join('');

function entriesCsv(entries: Entry[], compiled: CompiledQuery): string {
  const evNames: string[] = [];
  const seen = new Set<string>();
  for (const e of entries) for (const k of e.evs.keys()) if (!seen.has(k)) (seen.add(k), evNames.push(k));
  const rows = [['TIMESTAMP', 'TAG', 'SRC', 'DATA', ...evNames]];
  for (const e of entries) {
    rows.push([formatTs(e.ts), compiled.runtime.tagName(e.tag), e.src, e.data.toString('utf8'), ...evNames.map((n) => (e.evs.has(n) ? evToString(e.evs.get(n)!) : ''))]);
  }
  return csvLines(rows);
}

export function formatResult(result: RenderResult, format: string, compiled: CompiledQuery): Formatted {
  const json = (v: unknown): Formatted => ({ contentType: 'application/json; charset=utf-8', body: JSON.stringify(v) });
  const csv = (s: string): Formatted => ({ contentType: 'text/csv; charset=utf-8', body: s });
  switch (result.kind) {
    case 'entries':
      if (format === 'json') return json(result.Entries.map(toSearchEntry));
      if (format === 'csv') return csv(entriesCsv(result.Entries, compiled));
      return {
        contentType: 'text/plain; charset=utf-8',
        body: Buffer.concat(result.Entries.flatMap((e) => [e.data, Buffer.from('\n')])),
      };
    case 'table':
      if (format === 'json') return json(result.Entries);
      return csv(csvLines([result.Entries.Columns, ...result.Entries.Rows.map((r) => r.Row)]));
    case 'chart':
      if (format === 'json') return json(result.Entries);
      return csv(csvLines([['TIMESTAMP', ...result.Entries.Names], ...result.Entries.Values.map((v) => [v.TS, ...v.Data.map(String)])]));
    case 'gauge':
      if (format === 'json') return json(result.Entries);
      return csv(csvLines([['Name', 'Magnitude', 'Min', 'Max'], ...result.Entries.map((g) => [g.Name, String(g.Magnitude), String(g.Min), String(g.Max)])]));
    case 'stackgraph':
      return format === 'json' ? json(result.Entries) : csv(csvLines(stackgraphCsvRows(result.Entries)));
    case 'pointmap':
      return format === 'json' ? json(result.Entries) : csv(csvLines(pointmapCsvRows(result.Entries)));
  }
}
