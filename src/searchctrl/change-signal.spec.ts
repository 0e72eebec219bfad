import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Entry } from '../query';
import { ChangeSignal } from './change-signal';
import { RenderStore } from './render-store';

/** Settles within the microtasks now queued: true when `p` resolved. */
async function resolvedNow(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('ChangeSignal', () => {
  it('wakes every waiter of the next change once; later waiters wait for the one after', async () => {
    const c = new ChangeSignal();
    const a = c.next();
    const b = c.next();
    expect(a).toBe(b);
    expect(await resolvedNow(a)).toBe(false);
    c.notify();
    expect(await resolvedNow(a)).toBe(true);
    const later = c.next();
    expect(await resolvedNow(later)).toBe(false);
    c.notify();
    expect(await resolvedNow(later)).toBe(true);
  });
});

describe('RenderStore.changed', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-changed-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const entry = (i: number): Entry => ({ ts: 1_700_000_000_000_000 + i, tag: 1, src: '10.0.0.1', data: Buffer.from(`e${i}`), evs: new Map() });

  it('resolves when entries are written, when the store closes, and on notify (the search state changed)', async () => {
    const s = await RenderStore.create(path.join(dir, 'a'), 1 << 20);
    const written = s.changed();
    await s.append([]);
    expect(await resolvedNow(written)).toBe(false);
    await s.append([entry(1), entry(2)]);
    expect(await resolvedNow(written)).toBe(true);
    expect(s.count).toBe(2);
    const stated = s.changed();
    s.notify();
    expect(await resolvedNow(stated)).toBe(true);
    const closed = s.changed();
    await s.finish({ kind: 'entries', EntryCount: 2, Entries: [] });
    expect(await resolvedNow(closed)).toBe(true);
  });
});
