/** Actionables (/api/pivots, README "Actionables") as the console uses them. */
import { api } from '../api/client';
import { Actionable, ActionableInput } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

/** The actionables the person can use (own, shared with their groups, global), or every user's in admin mode. */
export async function listActionables(admin?: boolean): Promise<Actionable[]> {
  return (await api<Actionable[] | null>('/api/pivots', { query: adminQuery(admin) })) ?? [];
}

/** POST answers the new actionable's GUID (as the product does). */
export const createActionable = (input: ActionableInput): Promise<string> => api<string>('/api/pivots', { method: 'POST', json: input });

/** By ThingUUID in admin mode (an administrator's view reaches each instance), else by GUID. */
const path = (a: Actionable, admin?: boolean) => `/api/pivots/${admin ? a.ThingUUID : a.GUID}`;

export const updateActionable = (a: Actionable, input: ActionableInput, admin?: boolean): Promise<Actionable> =>
  api<Actionable>(path(a, admin), { method: 'PUT', json: input, query: adminQuery(admin) });

export const deleteActionable = (a: Actionable, admin?: boolean): Promise<unknown> => api(path(a, admin), { method: 'DELETE', query: adminQuery(admin) });

/** Does the actionable match the words typed in the filter box (name, menu, description, triggers, actions, labels) and the chosen label? */
export function actionableMatches(a: Actionable, text: string, label?: string): boolean {
  const c = a.Contents;
  return hasEveryWord(
    [a.Name, a.Description, c.menuLabel, ...c.triggers.map((t) => t.pattern), ...c.actions.flatMap((x) => [x.name, x.command.reference]), ...(a.Labels ?? [])],
    text,
    a.Labels,
    label,
  );
}
