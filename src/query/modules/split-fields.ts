/** Splitting delimited text into columns, for `fields` (-q, -clean). */

export interface SplitOptions {
  /** delimiters between double quotes are part of the column */
  quoted: boolean;
  /** trim surrounding whitespace; with `quoted`, also the surrounding double quotes */
  clean: boolean;
}

const QUOTE = 0x22;

function cleanColumn(raw: string, o: SplitOptions): string {
  if (!o.clean) return raw;
  const t = raw.trim();
  if (o.quoted && t.length >= 2 && t.charCodeAt(0) === QUOTE && t.charCodeAt(t.length - 1) === QUOTE) {
    return t.slice(1, -1);
  }
  return t;
}

/**
 * Columns 0..maxIndex of `text` split on `delim` (one pass, stops after column `maxIndex`; a
 * column that does not exist is absent from the result). With `quoted`, a `"` toggles "inside
 * quotes" (so `""` inside a quoted column toggles twice and stays inside).
 */
export function splitColumns(text: string, delim: string, maxIndex: number, o: SplitOptions): string[] {
  const out: string[] = [];
  const d0 = delim.charCodeAt(0);
  const single = delim.length === 1;
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (o.quoted && c === QUOTE) {
      inQuote = !inQuote;
      continue;
    }
    if (inQuote || c !== d0 || (!single && !text.startsWith(delim, i))) continue;
    out.push(cleanColumn(text.slice(start, i), o));
    if (out.length > maxIndex) return out;
    i += delim.length - 1;
    start = i + 1;
  }
  out.push(cleanColumn(text.slice(start), o));
  return out;
}
