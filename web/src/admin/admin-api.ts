/** Users and groups as administrators change them (contract "Users and groups"; /api/groups). */
import { api } from '../api/client';
import { GroupDetails, NewUserInput, UserDetails, UserSessions } from '../api/types';
import { byName, byUser, editSteps, UserEdit } from './user-edit';

export async function listUsers(): Promise<UserDetails[]> {
  const list = (await api<UserDetails[] | null>('/api/users')) ?? [];
  return list.map((u) => ({ ...u, Groups: [...(u.Groups ?? [])].sort(byName) })).sort(byUser);
}

export async function listGroups(): Promise<GroupDetails[]> {
  return [...((await api<GroupDetails[] | null>('/api/groups')) ?? [])].sort(byName);
}

/** Part of a change was made and part was refused: the dialog closes and the page says which. */
export class PartlyDone extends Error {}

/** Creates the account, then adds its groups and sets its default search group (0: none); returns the new UID. */
export async function createUser(input: NewUserInput, gids: number[], defaultGid = 0): Promise<number> {
  const uid = await api<number>('/api/users', { method: 'POST', json: input });
  try {
    if (gids.length) await addGroups(uid, gids);
    if (defaultGid) await api(`/api/users/${uid}/searchgroup`, { method: 'PUT', json: { GID: defaultGid } });
  } catch (err) {
    throw new PartlyDone(`The account ${input.User} was created, but its groups could not be set: ${(err as Error).message}`, { cause: err });
  }
  return uid;
}

/**
 * Runs the calls of `editSteps` in order; the first refusal stops it, in the API's words (a
 * `PartlyDone` when earlier calls went through, so the page reloads what is now stored).
 */
export async function saveUser(before: UserDetails, after: UserEdit): Promise<number> {
  const steps = editSteps(before, after);
  for (const [i, step] of steps.entries()) {
    try {
      await api(step.path, { method: step.method, json: step.json });
    } catch (err) {
      const why = `the ${step.what} could not be saved: ${(err as Error).message}`;
      if (i > 0) throw new PartlyDone(`Saved part of the changes to ${before.User}, but ${why}`, { cause: err });
      throw new Error(why.charAt(0).toUpperCase() + why.slice(1), { cause: err });
    }
  }
  return steps.length;
}

export const setLocked = (uid: number, locked: boolean) => api(`/api/users/${uid}/lock`, { method: locked ? 'PUT' : 'DELETE' });

export async function sessionCount(uid: number): Promise<number> {
  return (await api<UserSessions>(`/api/users/${uid}/sessions`)).Sessions?.length ?? 0;
}

/** `OrigPass` only for one's own account (rule 5). */
export const setPassword = (uid: number, NewPass: string, OrigPass?: string) =>
  api(`/api/users/${uid}/pwd`, { method: 'PUT', json: OrigPass === undefined ? { NewPass } : { OrigPass, NewPass } });

export const deleteUser = (uid: number) => api(`/api/users/${uid}`, { method: 'DELETE' });

export const addGroups = (uid: number, GIDs: number[]) => api<GroupDetails[]>(`/api/users/${uid}/group`, { method: 'POST', json: { GIDs } });

export const removeGroup = (uid: number, gid: number) => api(`/api/users/${uid}/group/${gid}`, { method: 'DELETE' });

export const createGroup = (Name: string, Desc: string) => api<number>('/api/groups', { method: 'POST', json: { Name, Desc } });

export const updateGroup = (gid: number, Name: string, Desc: string) => api<GroupDetails>(`/api/groups/${gid}`, { method: 'PUT', json: { Name, Desc } });

export const deleteGroup = (gid: number) => api(`/api/groups/${gid}`, { method: 'DELETE' });
