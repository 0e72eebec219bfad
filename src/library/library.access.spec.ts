import { AuthContext } from '../identity/auth.types';
import { AppError } from '../common/errors/app-error';
import { entryPermissions, entryRank, libraryCaller, requireDeleteEntry, requireModifyEntry, requireReadEntry } from './library.access';
import { toLibraryEntryDto } from './library.dto';
import { LibraryEntryEntity } from './library-entry.entity';
import { normalizeMetadata } from './library.service';

const auth = (uid: number, gids: number[] = [], isAdmin = false): AuthContext => ({ uid, username: `u${uid}`, accountAdmin: isAdmin, isAdmin, gids });
const entry = (uid: number, gids: number[], global = false, extra: Partial<LibraryEntryEntity> = {}): LibraryEntryEntity =>
  ({
    thingUuid: 't',
    guid: 'g',
    uid,
    gids,
    global,
    name: 'n',
    description: '',
    query: 'q',
    labels: [],
    metadata: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...extra,
  }) as LibraryEntryEntity;

const status = (fn: () => unknown): number => {
  try {
    fn();
    return 200;
  } catch (e) {
    return (e as AppError).status;
  }
};

describe('library.access', () => {
  const priv = entry(10, []);
  const shared = entry(10, [5]);
  const global = entry(10, [], true);
  const cases = [
    ['owner', libraryCaller(auth(10, [5]), false), [200, 200, 200], [200, 200, 200]],
    ['owner ?admin=true (ignored)', libraryCaller(auth(10, [5]), true), [200, 200, 200], [200, 200, 200]],
    ['member', libraryCaller(auth(11, [5]), false), [403, 200, 200], [403, 403, 403]],
    ['member ?admin=true (ignored)', libraryCaller(auth(11, [5]), true), [403, 200, 200], [403, 403, 403]],
    ['stranger', libraryCaller(auth(12, [6]), true), [403, 403, 200], [403, 403, 403]],
    ['admin', libraryCaller(auth(1, [], true), false), [403, 403, 200], [403, 403, 403]],
    ['admin ?admin=true', libraryCaller(auth(1, [], true), true), [200, 200, 200], [200, 200, 200]],
  ] as const;

  it.each(cases)('%s: read, modify, delete over private, shared, global', (_, c, read, write) => {
    const objs = [priv, shared, global];
    expect(objs.map((e) => status(() => requireReadEntry(c, e)))).toEqual(read);
    expect(objs.map((e) => status(() => requireModifyEntry(c, e)))).toEqual(write);
    expect(objs.map((e) => status(() => requireDeleteEntry(c, e)))).toEqual(write);
    for (const [i, e] of objs.entries()) {
      const ok = write[i] === 200;
      expect(entryPermissions(c, e)).toEqual({ Delete: ok, Modify: ok, Share: ok });
    }
  });

  it('unknown entries are 404', () => {
    const c = libraryCaller(auth(1, [], true), true);
    expect(status(() => requireReadEntry(c, null))).toBe(404);
    expect(status(() => requireDeleteEntry(c, null))).toBe(404);
  });

  it('admin mode needs an admin session: a token of an admin has none', () => {
    const tok: AuthContext = { ...auth(1, [], false), accountAdmin: true, token: { id: 'x', capabilities: new Set(), expiresAt: null } };
    expect(libraryCaller(tok, true).adminMode).toBe(false);
  });

  it('ranks own < group < global < admin-mode other', () => {
    const c = libraryCaller(auth(11, [5]), false);
    expect(entryRank(c, entry(11, []))).toBe(0);
    expect(entryRank(c, shared)).toBe(1);
    expect(entryRank(c, global)).toBe(2);
    expect(entryRank(c, priv)).toBe(Infinity);
    expect(entryRank(libraryCaller(auth(1, [], true), true), priv)).toBe(3);
  });
});

describe('library DTO and Metadata', () => {
  it('omits empty GIDs, Labels and Metadata and always carries Can and WriteAccess', () => {
    const can = { Delete: true, Modify: true, Share: true };
    expect(toLibraryEntryDto(entry(3, []), can)).toEqual({
      ThingUUID: 't',
      GUID: 'g',
      UID: 3,
      Global: false,
      Name: 'n',
      Description: '',
      Query: 'q',
      Can: can,
      WriteAccess: { Global: false, GIDs: [] },
    });
    for (const m of [null, {}, []]) expect(toLibraryEntryDto(entry(3, [], false, { metadata: m }), can)).not.toHaveProperty('Metadata');
    expect(toLibraryEntryDto(entry(3, [4], false, { labels: ['l'], metadata: { a: 1 } }), can)).toEqual(expect.objectContaining({ GIDs: [4], Labels: ['l'], Metadata: { a: 1 } }));
  });

  it('normalizes Metadata', () => {
    expect(normalizeMetadata(undefined)).toBeNull();
    expect(normalizeMetadata(null)).toBeNull();
    expect(normalizeMetadata('')).toBeNull();
    expect(normalizeMetadata('[1]')).toEqual([1]);
    expect(normalizeMetadata({ a: 1 })).toEqual({ a: 1 });
    expect(() => normalizeMetadata('{x')).toThrow('Metadata must be valid JSON');
  });
});
