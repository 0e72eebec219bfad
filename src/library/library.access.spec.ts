import { AuthContext } from '../identity/auth.types';
import { sharingCaller as libraryCaller } from '../sharing/access-policy';
import { libraryPolicy as policy } from './library.access';
import { toLibraryEntryDto } from './library.dto';
import { LibraryEntryEntity } from './library-entry.entity';
import { normalizeMetadata } from './library.service';
import { caller, statusOf } from '../sharing/access.spec-helper';

const auth = caller;
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

const status = statusOf;

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
    expect(objs.map((e) => status(() => policy.require(c, e, 'read')))).toEqual(read);
    expect(objs.map((e) => status(() => policy.require(c, e, 'change')))).toEqual(write);
    expect(objs.map((e) => status(() => policy.require(c, e, 'delete')))).toEqual(write);
    for (const [i, e] of objs.entries()) {
      const ok = write[i] === 200;
      expect(policy.permissions(c, e)).toEqual({ Delete: ok, Modify: ok, Share: ok });
    }
  });

  it('unknown entries are 404', () => {
    const c = libraryCaller(auth(1, [], true), true);
    expect(status(() => policy.require(c, null, 'read'))).toBe(404);
    expect(status(() => policy.require(c, null, 'delete'))).toBe(404);
  });

  it('admin mode needs an admin session: a token of an admin has none', () => {
    const tok: AuthContext = { ...auth(1, [], false), accountAdmin: true, token: { id: 'x', capabilities: new Set(), expiresAt: null } };
    expect(libraryCaller(tok, true).adminMode).toBe(false);
  });

  it('ranks own < group < global < admin-mode other', () => {
    const c = libraryCaller(auth(11, [5]), false);
    expect(policy.rank(c, entry(11, []))).toBe(0);
    expect(policy.rank(c, shared)).toBe(1);
    expect(policy.rank(c, global)).toBe(2);
    expect(policy.rank(c, priv)).toBe(Infinity);
    expect(policy.rank(libraryCaller(auth(1, [], true), true), priv)).toBe(3);
  });

  it('refuses with the library wording: unreadable 403, and delete names itself even for a stranger', () => {
    const stranger = libraryCaller(auth(12, [6]), false);
    expect(() => policy.require(stranger, priv, 'read')).toThrow('You cannot access this library entry');
    expect(() => policy.require(stranger, priv, 'change')).toThrow('You cannot access this library entry');
    expect(() => policy.require(stranger, priv, 'delete')).toThrow('Only the owner (or an admin with ?admin=true) may delete this library entry');
    expect(() => policy.require(libraryCaller(auth(11, [5]), false), shared, 'change')).toThrow('Only the owner (or an admin with ?admin=true) may change this library entry');
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
