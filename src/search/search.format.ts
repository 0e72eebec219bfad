/** Finished results of a direct search in the requested download format (the writers: query/renderers). */
import { assertUnreachable, CompiledQuery, condensedBody, DOWNLOAD_CONTENT_TYPES, EntryDownload, entryCsvColumns, liveEntry, RenderResult } from '../query';

export interface Formatted {
  contentType: string;
  body: string | Buffer;
}

/** `format` is one of the renderer's download formats other than archive (the caller checked). */
export function formatResult(result: RenderResult, format: string, compiled: CompiledQuery): Formatted {
  if (format !== 'json' && format !== 'csv' && format !== 'text') throw new Error(`no direct ${format} download`);
  const contentType = DOWNLOAD_CONTENT_TYPES[format];
  if (result.kind === 'entries') {
    const w = new EntryDownload(format, entryCsvColumns(compiled.parsed));
    const rt = compiled.runtime;
    const head = w.entries(result.Entries.map((e) => liveEntry(e, (t) => rt.tagName(t))));
    const tail = w.end();
    return { contentType, body: Buffer.isBuffer(head) ? Buffer.concat([head, Buffer.from(tail)]) : head + tail };
  }
  switch (format) {
    case 'json':
    case 'csv':
      return { contentType, body: condensedBody(result, format) };
    case 'text':
      throw new Error(`the ${result.kind} result has no text download`);
    default:
      return assertUnreachable(format);
  }
}
