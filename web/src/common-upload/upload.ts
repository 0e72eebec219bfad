/**
 * Multipart uploads with progress: `fetch` cannot report upload progress, so these go through
 * XMLHttpRequest, authenticated exactly as api() is (same-origin cookie and `X-Console: 1`,
 * web/src/api/client.ts). Failures reject with ApiError carrying the service's `Error` text.
 */
import { api, ApiError, CONSOLE_HEADER } from '../api/client';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  method: 'POST' | 'PUT';
  url: string;
  form: FormData;
  onProgress?(p: UploadProgress): void;
  signal?: AbortSignal;
}

/** The service's `Error` (or `Reason`) of a failed answer, else the status line. */
export function errorMessage(status: number, statusText: string, text: string): string {
  try {
    const b = JSON.parse(text) as { Error?: unknown; Reason?: unknown } | null;
    if (b && typeof b.Error === 'string' && b.Error) return b.Error;
    if (b && typeof b.Reason === 'string' && b.Reason) return b.Reason;
  } catch {
    /* not JSON */
  }
  if (status === 413) return 'The file is larger than the service accepts.';
  return `${status} ${statusText || 'error'}`;
}

export function upload<T>({ method, url, form, onProgress, signal }: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader(CONSOLE_HEADER, '1');
    xhr.setRequestHeader('Accept', 'application/json');
    if (onProgress) xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
        } catch {
          reject(new ApiError(xhr.status, 'The service answered something that is not JSON.'));
        }
        return;
      }
      // A 401 means the session ended: api() tells the console (it then offers the sign-in page).
      if (xhr.status === 401) void api('/api/info/whoami').catch(() => undefined);
      reject(new ApiError(xhr.status, errorMessage(xhr.status, xhr.statusText, xhr.responseText)));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the service cannot be reached. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    if (signal) {
      if (signal.aborted) return xhr.abort();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
