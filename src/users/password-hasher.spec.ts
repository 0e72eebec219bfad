import { availableParallelism } from 'node:os';
import { AppError } from '../common/errors/app-error';
import { loadConfig } from '../config/env.schema';
import { MAX_WAITING_PER_SLOT, PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const config = (concurrency: string) => loadConfig({ BCRYPT_ROUNDS: '4', BCRYPT_CONCURRENCY: concurrency, DATA_DIR: '/tmp/unused' });

  it('defaults BCRYPT_CONCURRENCY to one core fewer than the machine has (at least 1), and validates it', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/unused' }).bcryptConcurrency).toBe(Math.max(1, availableParallelism() - 1));
    expect(() => loadConfig({ BCRYPT_CONCURRENCY: '0', DATA_DIR: '/tmp/unused' })).toThrow(/BCRYPT_CONCURRENCY/);
  });

  it('hashes and compares', async () => {
    const h = new PasswordHasher(config('1'));
    const hash = await h.hash('correct horse');
    expect(await h.compare('correct horse', hash)).toBe(true);
    expect(await h.compare('wrong horse', hash)).toBe(false);
  });

  it('runs one hash per slot; a full queue answers 503 with Retry-After at once', async () => {
    const h = new PasswordHasher(config('1'));
    const hash = await h.hash('pw-123456');
    const calls = Array.from({ length: MAX_WAITING_PER_SLOT + 2 }, () =>
      h.compare('pw-123456', hash).then(
        (ok) => ({ ok }),
        (err: AppError) => ({ status: err.status, retry: err.headers['Retry-After'] }),
      ),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => 'ok' in r && r.ok)).toHaveLength(MAX_WAITING_PER_SLOT + 1);
    expect(results[results.length - 1]).toEqual({ status: 503, retry: '1' });
  });
});
