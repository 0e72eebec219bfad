/**
 * Downloads through the console's session: the contents are fetched with `X-Console: 1` (the
 * service reads the session cookie only then), kept as a Blob and saved under the name the
 * service gives in Content-Disposition. The bytes are exactly those the service sent.
 */
import { ApiError, CONSOLE_HEADER } from '../api/client';
import { errorMessage } from './upload';

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

/** A name safe to offer the browser's save dialog (no path separators or control characters). */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]+/g, '_').trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned.slice(0, 200) : fallback;
}

export async function downloadFile(url: string, fallbackName: string, signal?: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { [CONSOLE_HEADER]: '1' }, credentials: 'same-origin', signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'The download failed: the service cannot be reached.');
  }
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, res.statusText, await res.text()));
  const blob = await res.blob();
  const name = safeFileName(filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName, fallbackName);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the blob once the click is handled; free it a little later.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
