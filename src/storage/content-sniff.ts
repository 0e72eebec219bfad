/**
 * Server-side content type detection for uploaded contents. The client's declared type is
 * never trusted: binary formats are sniffed from their magic numbers with `file-type`; what it
 * does not know is `text/plain` when the whole upload is valid UTF-8 without NUL bytes, else
 * `application/octet-stream`.
 */

export const OCTET_STREAM = 'application/octet-stream';
export const TEXT_PLAIN = 'text/plain';

/** Bytes kept from the start of an upload for sniffing (file-type's reasonable sample size). */
export const SNIFF_BYTES = 4100;

type FileTypeModule = { fileTypeFromBuffer(b: Uint8Array): Promise<{ mime: string } | undefined> };
let fileType: FileTypeModule | undefined;

// file-type is an ES module; Node 20's require() loads it (and jest compiles it to CommonJS).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
const loadFileType = (): FileTypeModule => (fileType ??= require('file-type') as FileTypeModule);

/** Incremental UTF-8 text check, fed chunk by chunk while an upload streams. */
export class TextCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private ok = true;

  push(chunk: Uint8Array): void {
    if (!this.ok) return;
    if (chunk.includes(0)) {
      this.ok = false;
      return;
    }
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.ok = false;
    }
  }

  /** True when everything pushed was valid UTF-8 text (no NUL, no truncated sequence at the end). */
  finish(): boolean {
    if (!this.ok) return false;
    try {
      this.decoder.decode();
      return true;
    } catch {
      return false;
    }
  }
}

/** The content type of contents that start with `head`, `size` bytes long, `isText` per TextCheck. */
export async function detectContentType(head: Uint8Array, size: number, isText: boolean): Promise<string> {
  if (size === 0) return OCTET_STREAM;
  // A copy made with this realm's Uint8Array: file-type checks `instanceof Uint8Array`, which a
  // Buffer from another realm (as under jest) fails, silently detecting nothing.
  const sniffed = await loadFileType().fileTypeFromBuffer(Uint8Array.from(head));
  if (sniffed?.mime) return sniffed.mime;
  return isText ? TEXT_PLAIN : OCTET_STREAM;
}

/** Content-Type header value for stored contents (charset for text). */
export function contentTypeHeader(type: string): string {
  return type === TEXT_PLAIN ? 'text/plain; charset=utf-8' : type || OCTET_STREAM;
}
