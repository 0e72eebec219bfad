/**
 * Downloads through the console's session: the contents are fetched with `X-Console: 1` (the
 * service reads the session cookie only then), kept as a Blob and saved under the name the
 * service gives in Content-Disposition. The bytes are exactly those the service sent. Requests go
 * through client.ts apiRaw (its error text; a 401 ends the session like any other call).
 */
import { apiRaw } from '../api/client';

/** The file name of a Content-Disposition header (RFC 6266: `filename*` wins), else undefined. */
export function filenameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      /* fall back to filename= */
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  if (!plain) return undefined;
  const name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2].trim();
  return name || undefined;
}

/** A name with path separators and control characters replaced by "_" (the service refuses them in names). */
export const cleanFileName = (name: string): string => name.replace(/[\u0000-\u001f\u007f/\\]+/g, '_');

/** A name safe to offer the browser's save dialog (no path separators or control characters). */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = cleanFileName(name).trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned.slice(0, 200) : fallback;
}

/** Offers a Blob to the browser's save dialog under this name (made safe with safeFileName). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = safeFileName(fileName, 'download');
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the blob once the click is handled; free it a little later.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

export async function downloadFile(url: string, fallbackName: string, signal?: AbortSignal): Promise<void> {
  const res = await apiRaw(url, { signal });
  const blob = await res.blob();
  saveBlob(blob, safeFileName(filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName, fallbackName));
}
