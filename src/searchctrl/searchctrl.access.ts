/** The one place deciding who may view, control and modify a persistent search. */
import { AuthContext } from '../identity/auth.types';
import { canReadShared, isOwner, sharesGroupWith } from '../sharing/shareable';
import { forbidden, notFound } from '../common/errors/app-error';
import { LiveSearch } from './search.model';

const NOT_YOURS = 'Only the owner or an admin may change this search';

const shareable = (s: LiveSearch) => ({ uid: s.uid, gids: s.gids, global: s.global });

/** Owner, group member, global reader or admin. */
export const canView = (auth: AuthContext, s: LiveSearch): boolean => canReadShared(auth, shareable(s));

/** In listings: admins see everything only with `?admin=true`. */
export const listedFor = (auth: AuthContext, s: LiveSearch, adminMode: boolean): boolean => (adminMode && auth.isAdmin) || isOwner(auth, s) || s.global || sharesGroupWith(auth, s);

/** Unknown and invisible searches are both 404. */
export function requireView(auth: AuthContext, s: LiveSearch | undefined): LiveSearch {
  if (!s || s.flags.removed || !canView(auth, s)) throw notFound('Search');
  return s;
}

/** Save and sharing: owner or admin; a viewer who is neither gets 403 (a stranger 404). */
export function requireModify(auth: AuthContext, s: LiveSearch | undefined): LiveSearch {
  const v = requireView(auth, s);
  if (!auth.isAdmin && !isOwner(auth, v)) throw forbidden(NOT_YOURS);
  return v;
}

/**
 * Stop and delete: owner or admin. Anyone else gets 403 whether or not they may view the search
 * (contract, Errors: "Search delete or stop by a user not authorised to modify the search: 403");
 * only an ID no search has (or one already removed) is 404.
 */
export function requireControl(auth: AuthContext, s: LiveSearch | undefined): LiveSearch {
  if (!s || s.flags.removed) throw notFound('Search');
  if (!auth.isAdmin && !isOwner(auth, s)) throw forbidden(NOT_YOURS);
  return s;
}
