import { describe, expect, it } from '@jest/globals';
import { UserDetails } from '../api/types';
import { defaultGroupName, editOf, editSteps, groupMatches, lockedMessage, membersOf, sessions, userMatches } from './user-edit';

const ops = { GID: 2, Name: 'ops', Desc: 'Operations' };
const web = { GID: 3, Name: 'web', Desc: '' };
const user = (over: Partial<UserDetails> = {}): UserDetails => ({
  UID: 7,
  User: 'bob',
  Name: 'Bob Jones',
  Email: 'bob@example.com',
  Admin: false,
  Locked: false,
  Groups: [ops],
  DefaultGID: 2,
  ...over,
});

describe('user edit steps', () => {
  it('makes no call when nothing changed', () => {
    const u = user();
    expect(editSteps(u, editOf(u))).toEqual([]);
  });

  it('sends only the changed account fields, then admin status, groups added, groups removed and the default group', () => {
    const u = user();
    expect(editSteps(u, { User: 'robert', Name: 'Bob Jones', Email: 'rob@example.com', Admin: true, GIDs: [3], DefaultGID: 3 })).toEqual([
      { what: 'account details', method: 'PUT', path: '/api/users/7', json: { User: 'robert', Email: 'rob@example.com' } },
      { what: 'administrator status', method: 'PUT', path: '/api/users/7/admin' },
      { what: 'groups', method: 'POST', path: '/api/users/7/group', json: { GIDs: [3] } },
      { what: 'groups', method: 'DELETE', path: '/api/users/7/group/2' },
      { what: 'default search group', method: 'PUT', path: '/api/users/7/searchgroup', json: { GID: 3 } },
    ]);
  });

  it('removes admin status with DELETE, and leaves clearing the default group to the service when its group is removed', () => {
    const u = user({ Admin: true });
    expect(editSteps(u, { ...editOf(u), Admin: false, GIDs: [], DefaultGID: 0 })).toEqual([
      { what: 'administrator status', method: 'DELETE', path: '/api/users/7/admin' },
      { what: 'groups', method: 'DELETE', path: '/api/users/7/group/2' },
    ]);
  });

  it('clears the default group with GID 0 when the group stays', () => {
    const u = user();
    expect(editSteps(u, { ...editOf(u), DefaultGID: 0 })).toEqual([{ what: 'default search group', method: 'PUT', path: '/api/users/7/searchgroup', json: { GID: 0 } }]);
  });
});

describe('users page helpers', () => {
  it('filters on every word in the username, name, email or a group', () => {
    expect(userMatches(user(), '')).toBe(true);
    expect(userMatches(user(), 'BOB ops')).toBe(true);
    expect(userMatches(user(), 'example.com jones')).toBe(true);
    expect(userMatches(user(), 'bob web')).toBe(false);
  });

  it('names the default search group', () => {
    expect(defaultGroupName(user())).toBe('ops');
    expect(defaultGroupName(user({ DefaultGID: undefined }))).toBe('None');
    expect(defaultGroupName(user({ DefaultGID: 9 }))).toBe('group 9');
  });

  it('counts sessions in words and says how many a lock ended', () => {
    expect(sessions(1)).toBe('1 session');
    expect(sessions(0)).toBe('0 sessions');
    expect(lockedMessage('bob', 2, 0)).toBe('Locked bob: 2 sessions ended, 0 open now.');
    expect(lockedMessage('bob', 1, 0)).toBe('Locked bob: 1 session ended, 0 open now.');
    expect(lockedMessage('bob', undefined, 0)).toBe('Locked bob.');
  });

  it('splits users into members of a group and the others, by username', () => {
    const users = [user({ UID: 8, User: 'zed', Groups: [web] }), user(), user({ UID: 9, User: 'amy', Groups: [ops, web] })];
    const { members, others } = membersOf(2, users);
    expect(members.map((u) => u.User)).toEqual(['amy', 'bob']);
    expect(others.map((u) => u.User)).toEqual(['zed']);
  });

  it('filters groups on name and description', () => {
    expect(groupMatches(ops, 'operations')).toBe(true);
    expect(groupMatches(ops, 'OPS oper')).toBe(true);
    expect(groupMatches(web, 'ops')).toBe(false);
  });
});
