/**
 * Downloads: what each format is sent as, and the json and csv of condensed results (entries
 * results: entry-download.ts; `archive`: the render store's files, searchctrl/archive.ts). Which
 * formats a renderer offers is its RendererDef's `formats`.
 */
import { csvLine, resultCsvRows } from './result-csv';
import { assertUnreachable, CondensedResult, DownloadFormat } from './renderer';

/** Content-Type of each download format. */
export const DOWNLOAD_CONTENT_TYPES: Record<DownloadFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  archive: 'application/gzip',
};

/** File name extension of each download format. */
export const DOWNLOAD_EXTENSIONS: Record<DownloadFormat, string> = { json: 'json', csv: 'csv', text: 'txt', archive: 'tar.gz' };

const DOWNLOAD_FORMATS = Object.keys(DOWNLOAD_CONTENT_TYPES) as DownloadFormat[];

export function isDownloadFormat(f: string): f is DownloadFormat {
  return (DOWNLOAD_FORMATS as string[]).includes(f);
}

/** The formats a condensed result is written in (entries add `text`; `archive` is the store's files). */
export type CondensedFormat = 'json' | 'csv';

/** Bytes gathered into one chunk of a streamed download. */
const CHUNK = 64 * 1024;

/**
 * A condensed result in `format`, in chunks of about 64 KiB (a 250,000-row table streams
 * without one large string): json `Entries` as the renderer page shows them; csv resultCsvRows.
 */
export function* condensedChunks(r: CondensedResult, format: CondensedFormat): Generator<string> {
  switch (format) {
    case 'json':
      yield JSON.stringify(r.Entries);
      return;
    case 'csv': {
      let chunk = '';
      for (const row of resultCsvRows(r)) {
        chunk += csvLine(row);
        if (chunk.length >= CHUNK) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
      return;
    }
    default:
      return assertUnreachable(format);
  }
}

/** A condensed result in `format`, whole (direct search answers it at once). */
export function condensedBody(r: CondensedResult, format: CondensedFormat): string {
  return [...condensedChunks(r, format)].join('');
}
