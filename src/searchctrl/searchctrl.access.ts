/** Who may view, control and modify a persistent search: the shared-object policy, plus removed searches. */
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { SharingPolicy, sharingCaller } from '../sharing/access-policy';
import { LiveSearch } from './search.model';

/**
 * Admins act on every search (`?admin=true` only lists them all); unknown, removed and invisible
 * searches are 404. Stop and delete refuse anyone but the owner or an admin with 403 whether or
 * not they may view the search (contract, Errors: "Search delete or stop by a user not
 * authorised to modify the search: 403"). Sharing checks group membership only
 * (`requireMayShareWith`).
 */
export const searchPolicy = new SharingPolicy<LiveSearch>({
  adminActs: 'always',
  unreadable: 'hidden',
  deleteWithoutRead: true,
  ownerChange: 'never',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: { notFound: () => refusal('SEARCH_NOT_FOUND'), notYours: () => refusal('SEARCH_NOT_YOURS') },
});

const live = (s: LiveSearch | undefined): LiveSearch | undefined => (s && !s.flags.removed ? s : undefined);

/** In listings: admins see everything only with `?admin=true`. */
export const listedFor = (auth: AuthContext, s: LiveSearch, adminMode: boolean): boolean => searchPolicy.listed(sharingCaller(auth, adminMode), s);

export const requireView = (auth: AuthContext, s: LiveSearch | undefined): LiveSearch => searchPolicy.require(auth, live(s), 'read');

/** Save and sharing: owner or admin; a viewer who is neither gets 403 (a stranger 404). */
export const requireModify = (auth: AuthContext, s: LiveSearch | undefined): LiveSearch => searchPolicy.require(auth, live(s), 'change');

/** Stop and delete: owner or admin, else 403; only an ID no search has (or one already removed) is 404. */
export const requireControl = (auth: AuthContext, s: LiveSearch | undefined): LiveSearch => searchPolicy.require(auth, live(s), 'delete');
