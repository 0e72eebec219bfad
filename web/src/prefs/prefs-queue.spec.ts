import { describe, expect, it } from '@jest/globals';
import { addDismissed, PREFS_KEY, readDismissed } from '../notifications/notifications';
import { CONSOLE_KEY, patchPrefs, readPrefs } from './prefs';
import { BlobStore, PrefsQueue, withKey } from './prefs-queue';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** The service's preferences endpoint: GET and PUT of one blob, each answering a moment later. */
function fakeService(initial: unknown): BlobStore & { stored: () => unknown; failNextPut(): void } {
  let stored = JSON.stringify(initial);
  let fail = false;
  return {
    stored: () => JSON.parse(stored) as unknown,
    failNextPut: () => void (fail = true),
    load: async () => {
      const copy = JSON.parse(stored) as unknown;
      await tick();
      return copy;
    },
    store: async (blob) => {
      await tick();
      if (fail) {
        fail = false;
        throw new Error('refused');
      }
      stored = JSON.stringify(blob);
    },
  };
}

const setting = (value: unknown) => patchPrefs(value, { theme: 'dark' });
const dismissal = (value: unknown) => addDismissed(value, ['42']);

describe('the preferences blob queue', () => {
  it('keeps both a setting and a notification dismissal made at the same moment, and other clients’ keys', async () => {
    const svc = fakeService({ otherClient: { layout: 'compact' }, [PREFS_KEY]: { dismissed: ['7'] } });
    const queue = new PrefsQueue(svc);
    // Interleaved: the dismissal is queued before the setting's write has even read the blob.
    const a = queue.update(CONSOLE_KEY, setting);
    const b = queue.update(PREFS_KEY, dismissal);
    await Promise.all([a, b]);
    const blob = svc.stored();
    expect(readPrefs(blob).theme).toBe('dark');
    expect([...readDismissed(blob)]).toEqual(['7', '42']);
    expect((blob as { otherClient: unknown }).otherClient).toEqual({ layout: 'compact' });
    expect(queue.isLast(b)).toBe(true);
    expect(queue.isLast(a)).toBe(false);
  });

  it('(the lost update it prevents: two separate read-modify-writes started together keep only the last)', async () => {
    const svc = fakeService({});
    const rmw = async (key: string, fn: (v: unknown) => unknown) => svc.store(withKey(await svc.load(), key, fn));
    await Promise.all([rmw(CONSOLE_KEY, setting), rmw(PREFS_KEY, dismissal)]);
    expect(readPrefs(svc.stored()).theme === 'dark' && readDismissed(svc.stored()).has('42')).toBe(false);
  });

  it('goes on after a refused write, which changes nothing', async () => {
    const svc = fakeService({ [CONSOLE_KEY]: { theme: 'light' } });
    const queue = new PrefsQueue(svc);
    svc.failNextPut();
    const a = queue.update(CONSOLE_KEY, setting);
    const b = queue.update(PREFS_KEY, dismissal);
    await expect(a).rejects.toThrow('refused');
    await expect(b).resolves.toEqual({ [CONSOLE_KEY]: { theme: 'light' }, [PREFS_KEY]: { dismissed: ['42'] } });
    expect(readPrefs(svc.stored()).theme).toBe('light');
  });

  it('replaces one key of any stored shape, keeping the others', () => {
    expect(withKey({ a: 1, b: 2 }, 'b', (v) => (v as number) + 1)).toEqual({ a: 1, b: 3 });
    expect(withKey(null, 'a', () => 1)).toEqual({ a: 1 });
    expect(withKey([1, 2], 'a', (v) => v ?? 0)).toEqual({ a: 0 });
    expect(patchPrefs({ theme: 'dark', pageSize: 'lots' }, { timeZone: 'UTC' })).toEqual({ theme: 'dark', timeZone: 'UTC', defaultRange: '1h', pageSize: 100 });
  });
});
