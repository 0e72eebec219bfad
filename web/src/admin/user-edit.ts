/**
 * Pure logic of the users page: the filter, and the calls that turn an edited account into what
 * the API stores (contract "Users and groups": one route per kind of change).
 */
import { GroupDetails, UserDetails } from '../api/types';

/** What the edit dialog lets an administrator change. */
export interface UserEdit {
  User: string;
  Name: string;
  Email: string;
  Admin: boolean;
  GIDs: number[];
  /** 0: none */
  DefaultGID: number;
}

export interface Step {
  /** what the step changes, for "… could not be saved" */
  what: string;
  method: 'PUT' | 'POST' | 'DELETE';
  path: string;
  json?: unknown;
}

export function editOf(u: UserDetails): UserEdit {
  return { User: u.User, Name: u.Name, Email: u.Email, Admin: u.Admin, GIDs: u.Groups.map((g) => g.GID), DefaultGID: u.DefaultGID ?? 0 };
}

/**
 * The calls, in order, that take `before` to `after`: account fields, admin status, groups added,
 * groups removed, then the default search group (which must be one of the user's groups, so it
 * comes last; removing the default group clears it on the service, so that needs no call).
 */
export function editSteps(before: UserDetails, after: UserEdit): Step[] {
  const base = `/api/users/${before.UID}`;
  const steps: Step[] = [];
  const fields: Partial<Pick<UserEdit, 'User' | 'Name' | 'Email'>> = {};
  if (after.User !== before.User) fields.User = after.User;
  if (after.Name !== before.Name) fields.Name = after.Name;
  if (after.Email !== before.Email) fields.Email = after.Email;
  if (Object.keys(fields).length) steps.push({ what: 'account details', method: 'PUT', path: base, json: fields });
  if (after.Admin !== before.Admin) steps.push({ what: 'administrator status', method: after.Admin ? 'PUT' : 'DELETE', path: `${base}/admin` });
  const had = before.Groups.map((g) => g.GID);
  const added = after.GIDs.filter((g) => !had.includes(g));
  const removed = had.filter((g) => !after.GIDs.includes(g));
  if (added.length) steps.push({ what: 'groups', method: 'POST', path: `${base}/group`, json: { GIDs: added } });
  for (const gid of removed) steps.push({ what: 'groups', method: 'DELETE', path: `${base}/group/${gid}` });
  const oldDefault = before.DefaultGID ?? 0;
  const clearedByRemoval = after.DefaultGID === 0 && removed.includes(oldDefault);
  if (after.DefaultGID !== oldDefault && !clearedByRemoval)
    steps.push({ what: 'default search group', method: 'PUT', path: `${base}/searchgroup`, json: { GID: after.DefaultGID } });
  return steps;
}

/** Every word typed in the filter appears in the username, name, email or a group name. */
export function userMatches(u: UserDetails, text: string): boolean {
  const hay = [u.User, u.Name, u.Email, ...u.Groups.map((g) => g.Name)].join('\n').toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

export const byName = (a: GroupDetails, b: GroupDetails) => a.Name.localeCompare(b.Name) || a.GID - b.GID;
export const byUser = (a: UserDetails, b: UserDetails) => a.User.localeCompare(b.User);

/** "1 session" / "3 sessions" */
export const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

/** "Locked bob: 2 sessions ended, 0 open now." (counts unknown: just "Locked bob.") */
export function lockedMessage(user: string, before?: number, after?: number): string {
  if (before === undefined || after === undefined) return `Locked ${user}.`;
  return `Locked ${user}: ${sessions(Math.max(0, before - after))} ended, ${after} open now.`;
}

/** The name of the user's default search group, or "None". */
export function defaultGroupName(u: UserDetails): string {
  if (!u.DefaultGID) return 'None';
  return u.Groups.find((g) => g.GID === u.DefaultGID)?.Name ?? `group ${u.DefaultGID}`;
}

/** The group's members and everyone else, each by username. */
export function membersOf(gid: number, users: UserDetails[]): { members: UserDetails[]; others: UserDetails[] } {
  const members: UserDetails[] = [];
  const others: UserDetails[] = [];
  for (const u of [...users].sort(byUser)) (u.Groups.some((g) => g.GID === gid) ? members : others).push(u);
  return { members, others };
}

/** Every word typed in the filter appears in the group's name or description. */
export function groupMatches(g: GroupDetails, text: string): boolean {
  const hay = `${g.Name}\n${g.Desc}`.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}
