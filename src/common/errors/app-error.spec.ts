import { formatBytes, refusal } from './app-error';

describe('limit messages', () => {
  it('write byte counts as people read them', () => {
    expect([0, 1000, 1024, 65536, 1536, 4 * 1024 * 1024, 32 * 1024 * 1024 + 512 * 1024, 2 ** 30].map(formatBytes)).toEqual([
      '0 bytes',
      '1000 bytes',
      '1 KiB',
      '64 KiB',
      '1.5 KiB',
      '4 MiB',
      '32.5 MiB',
      '1 GiB',
    ]);
  });

  it('name the limit and the setting in every 413', () => {
    const e = refusal('BODY_TOO_LARGE', 32 * 1024 * 1024, 'MAX_INGEST_BATCH_BYTES');
    expect([e.status, e.code, e.message]).toEqual([413, 'BODY_TOO_LARGE', 'Request body is larger than the limit of 32 MiB (MAX_INGEST_BATCH_BYTES)']);
    expect(refusal('BODY_TOO_LARGE', 65536).message).toBe('Request body is larger than the limit of 64 KiB');
  });
});
