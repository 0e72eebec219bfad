import { useEffect, useState } from 'react';
import { api } from '../api/client';

export interface UploadLimits {
  MaxFileSize?: number;
  MaxResourceSize?: number;
}

let cached: Promise<UploadLimits> | undefined;

/** The service's size limits for uploads (GET /api/settings), read once per page load; {} if unknown. */
export function useUploadLimits(): UploadLimits {
  const [limits, setLimits] = useState<UploadLimits>({});
  useEffect(() => {
    let live = true;
    cached ??= api<UploadLimits>('/api/settings').then(
      (s) => ({
        MaxFileSize: typeof s?.MaxFileSize === 'number' && s.MaxFileSize > 0 ? s.MaxFileSize : undefined,
        MaxResourceSize: typeof s?.MaxResourceSize === 'number' && s.MaxResourceSize > 0 ? s.MaxResourceSize : undefined,
      }),
      () => {
        cached = undefined;
        return {};
      },
    );
    void cached.then((l) => live && setLimits(l));
    return () => {
      live = false;
    };
  }, []);
  return limits;
}
