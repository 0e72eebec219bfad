/**
 * Multipart uploads with progress: `fetch` cannot report upload progress, so these go through
 * XMLHttpRequest, authenticated exactly as api() is (same-origin cookie and `X-Console: 1`,
 * web/src/api/client.ts). Failures reject with ApiError carrying the service's `Error` text.
 */
import { ApiError, CONSOLE_HEADER, errorMessage, sessionEnded } from '../api/client';

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

/** The words for a failed upload: the service's `Error` text (client.ts errorMessage), with words for a 413. */
export const uploadErrorMessage = (status: number, statusText: string, text: string): string =>
  errorMessage(status, statusText, text, status === 413 ? 'The file is larger than the service accepts.' : undefined);

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
      const error = new ApiError(xhr.status, uploadErrorMessage(xhr.status, xhr.statusText, xhr.responseText));
      // A 401 means the session ended: the console then offers the sign-in page.
      if (xhr.status === 401) sessionEnded();
      reject(error);
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
