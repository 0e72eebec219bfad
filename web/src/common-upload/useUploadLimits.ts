import { useState } from 'react';
import { api } from '../api/client';
import { useCancellable } from '../ui/useCancellable';

export interface UploadLimits {
  MaxFileSize?: number;
  MaxResourceSize?: number;
}

let cached: Promise<UploadLimits> | undefined;

/** The service's size limits for uploads (GET /api/settings), read once per page load; {} if unknown. */
export function useUploadLimits(): UploadLimits {
  const [limits, setLimits] = useState<UploadLimits>({});
  useCancellable(() => (cached ??= readLimits()), { answer: setLimits }, []);
  return limits;
}

function readLimits(): Promise<UploadLimits> {
  return api<UploadLimits>('/api/settings').then(
    (s) => ({
      MaxFileSize: typeof s?.MaxFileSize === 'number' && s.MaxFileSize > 0 ? s.MaxFileSize : undefined,
      MaxResourceSize: typeof s?.MaxResourceSize === 'number' && s.MaxResourceSize > 0 ? s.MaxResourceSize : undefined,
    }),
    () => {
      cached = undefined;
      return {};
    },
  );
}
