/** Sorting table cells (strings from the service): numbers as numbers, the rest as text. */
export type SortDir = 'ascending' | 'descending';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

export function compareCells(a: string, b: string): number {
  const na = NUMBER.test(a.trim());
  const nb = NUMBER.test(b.trim());
  if (na && nb) return Number(a) - Number(b);
  if (na !== nb) return na ? -1 : 1;
  return collator.compare(a, b);
}

export function sortRows<R extends { Row: string[] }>(rows: R[], col: number | undefined, dir: SortDir): R[] {
  if (col === undefined) return rows;
  const sign = dir === 'ascending' ? 1 : -1;
  return rows
    .map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => sign * compareCells(a.Row[col] ?? '', b.Row[col] ?? '') || i - j)
    .map(([r]) => r);
}

/** Tab-separated text of a table (what Copy puts on the clipboard). */
export function toTsv(columns: string[], rows: Array<{ Row: string[] }>): string {
  const cell = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  return [columns.map(cell).join('\t'), ...rows.map((r) => r.Row.map(cell).join('\t'))].join('\n') + '\n';
}
