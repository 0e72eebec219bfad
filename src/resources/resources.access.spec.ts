import { ResourceEntity } from './resource.entity';
import { sharingCaller } from '../sharing/access-policy';
import { resourcePolicy as policy } from './resources.access';
import { contentTypeByteCount } from './resources.service';
import { caller } from '../sharing/access.spec-helper';

const auth = caller;
const res = (over: Partial<ResourceEntity> = {}) => Object.assign(new ResourceEntity(), { guid: 'g', uid: 10, gids: [5], global: false, ...over });

describe('resources access', () => {
  it('owner reads and writes; group members and global readers only read; admins do everything', () => {
    const r = res();
    expect([policy.canRead(auth(10), r), policy.canChange(auth(10), r)]).toEqual([true, true]);
    expect([policy.canRead(auth(11, [5]), r), policy.canChange(auth(11, [5]), r)]).toEqual([true, false]);
    expect([policy.canRead(auth(12, [6]), r), policy.canChange(auth(12, [6]), r)]).toEqual([false, false]);
    expect([policy.canRead(auth(12), res({ global: true })), policy.canChange(auth(12), res({ global: true }))]).toEqual([true, false]);
    expect([policy.canRead(auth(1, [], true), r), policy.canChange(auth(1, [], true), r)]).toEqual([true, true]);
  });

  it('answers 404 for invisible resources and 403 for visible ones the caller may not change', () => {
    expect(() => policy.require(auth(12), res(), 'read')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => policy.require(auth(12), null, 'read')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => policy.require(auth(11, [5]), res(), 'change')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => policy.require(auth(11, [5]), res(), 'delete')).toThrow(expect.objectContaining({ status: 403 }));
    expect(policy.require(auth(10), res(), 'delete').guid).toBe('g');
  });

  it('admin=true lists everything only for admins', () => {
    expect(sharingCaller(auth(1, [], true), true).adminMode).toBe(true);
    expect(sharingCaller(auth(1, [], true), undefined).adminMode).toBe(false);
    expect(sharingCaller(auth(10), true).adminMode).toBe(false);
  });

  it('applies the 128/512 rule of contenttype', () => {
    expect(contentTypeByteCount(undefined, 10_000)).toBe(512);
    expect(contentTypeByteCount(127, 10_000)).toBe(512);
    expect(contentTypeByteCount(-1, 10_000)).toBe(512);
    expect(contentTypeByteCount(128, 10_000)).toBe(128);
    expect(contentTypeByteCount(4000, 10_000)).toBe(4000);
    expect(contentTypeByteCount(20_000, 10_000)).toBe(10_000);
    expect(contentTypeByteCount(undefined, 50)).toBe(50);
    expect(contentTypeByteCount(undefined, 0)).toBe(0);
  });
});
