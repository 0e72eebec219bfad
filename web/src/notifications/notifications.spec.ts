import { describe, expect, it } from '@jest/globals';
import { addDismissed, ago, compareIds, isOwn, levelOf, MAX_DISMISSED, Notification, PREFS_KEY, readDismissed, safeLink, unread, writeDismissed } from './notifications';

const n = (over: Partial<Notification>): Notification => ({
  UID: 0,
  GID: 0,
  Sender: 1,
  Type: 0,
  Broadcast: true,
  Sent: '2026-11-26T10:00:00.000Z',
  Expires: '2026-11-26T22:00:00.000Z',
  IgnoreUntil: '0001-01-01T00:00:00Z',
  Msg: 'Maintenance at noon',
  Origin: 'o',
  ...over,
});

describe('notification bell logic', () => {
  it('orders uint64 IDs numerically, not as text', () => {
    expect(['10', '9', '100', '11'].sort(compareIds)).toEqual(['9', '10', '11', '100']);
  });

  it('lists the unread ones newest first, without the dismissed ones and anything malformed', () => {
    const set = { '9': n({ Msg: 'old' }), '10': n({ Msg: 'new' }), '11': n({ Msg: 'gone' }), x: n({}), '12': { Msg: 5 }, '13': null };
    expect(unread(set, new Set(['11'])).map((s) => [s.ID, s.Msg])).toEqual([
      ['10', 'new'],
      ['9', 'old'],
    ]);
    expect(unread(null, new Set())).toEqual([]);
    expect(unread([n({})], new Set())).toEqual([]);
  });

  it("deletes only one's own (addressed to the user); broadcasts and group ones are hidden instead", () => {
    expect(isOwn(n({ UID: 5, Broadcast: false }), 5)).toBe(true);
    expect(isOwn(n({ UID: 0, GID: 3, Broadcast: false }), 5)).toBe(false);
    expect(isOwn(n({}), 5)).toBe(false);
  });

  it('knows the four levels and shows others as info', () => {
    expect(levelOf(n({ Level: 'critical' }))).toBe('critical');
    expect(levelOf(n({ Level: 'bogus' }))).toBe('info');
    expect(levelOf(n({}))).toBe('info');
  });

  it('follows only http(s) links; a path of the console stays relative', () => {
    const origin = 'https://console.example';
    expect(safeLink('/dashboards/4', origin)).toBe('/dashboards/4');
    expect(safeLink('https://console.example/files?x=1#y', origin)).toBe('/files?x=1#y');
    expect(safeLink('https://status.example/', origin)).toBe('https://status.example/');
    expect(safeLink('javascript:alert(1)', origin)).toBeUndefined();
    expect(safeLink('data:text/html,<b>', origin)).toBeUndefined();
    expect(safeLink(undefined, origin)).toBeUndefined();
  });

  it("keeps dismissals in the preferences blob beside every other client's keys, pruned to live IDs", () => {
    const blob = { console: { theme: 'dark' }, gui: { x: 1 }, [PREFS_KEY]: { dismissed: ['4', 'bad', 7] } };
    expect([...readDismissed(blob)]).toEqual(['4']);
    const next = writeDismissed(blob, ['4', '12', '3'], new Set(['12', '3', '99']));
    expect(next).toEqual({ console: { theme: 'dark' }, gui: { x: 1 }, [PREFS_KEY]: { dismissed: ['3', '12'] } });
    expect([...readDismissed(null)]).toEqual([]);
    expect(writeDismissed(null, ['1'])).toEqual({ [PREFS_KEY]: { dismissed: ['1'] } });
    const many = Array.from({ length: MAX_DISMISSED + 5 }, (_, i) => String(i + 1));
    const kept = (writeDismissed({}, many)[PREFS_KEY] as { dismissed: string[] }).dismissed;
    expect(kept).toHaveLength(MAX_DISMISSED);
    expect(kept[0]).toBe('6');
  });

  it('adds dismissals to the stored value of its key (what the preferences queue writes)', () => {
    expect(addDismissed({ dismissed: ['4', '5'] }, ['12'], new Set(['5', '12']))).toEqual({ dismissed: ['5', '12'] });
    expect(addDismissed(undefined, ['3'])).toEqual({ dismissed: ['3'] });
    expect(addDismissed('garbage', ['3', '3'])).toEqual({ dismissed: ['3'] });
  });

  it('says how long ago a notification was sent', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(ago('2026-11-26T11:59:30Z', now)).toBe('just now');
    expect(ago('2026-11-26T11:55:00Z', now)).toBe('5 min ago');
    expect(ago('2026-11-26T09:00:00Z', now)).toBe('3 h ago');
    expect(ago('2026-11-25T11:00:00Z', now)).toBe('yesterday');
    expect(ago('nonsense', now)).toBe('');
  });
});
