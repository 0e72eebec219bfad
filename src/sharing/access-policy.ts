import { AuthContext } from '../identity/auth.types';
import { AppError, refusal } from '../common/errors/app-error';
import { Shareable, isOwner, sharesGroupWith } from './shareable';

/** What every shared object has (the stored groups may be NULL: dashboards). */
export type SharedObject = Omit<Shareable, 'gids'> & { gids: readonly number[] | null };

/** The caller, with admin mode: `?admin=true` from an admin session (a token or a non-admin's flag is ignored). */
export interface SharingCaller {
  auth: AuthContext;
  adminMode: boolean;
}

export const sharingCaller = (auth: AuthContext, adminFlag?: boolean): SharingCaller => ({ auth, adminMode: auth.isAdmin && adminFlag === true });

/** Features whose admins act without the flag may pass the bare identity. */
export type Caller = AuthContext | SharingCaller;
const asCaller = (c: Caller): SharingCaller => ('auth' in c ? c : sharingCaller(c));

export type AccessAction = 'read' | 'change' | 'delete';
export type SharingStep = 'create' | 'update';

/**
 * The refusals of a kind, each a catalogue code (`refusal('CODE')`, src/common/errors/codes.ts);
 * those a kind leaves out are the shared ones (`DEFAULT_REFUSALS`).
 */
export interface SharingRefusals {
  /** 404 for an unknown object (and, `unreadable: 'hidden'`, one the caller may not read): `<KIND>_NOT_FOUND`. */
  notFound: () => AppError;
  /** 403 for an object the caller may read but not change or delete: `<KIND>_NOT_YOURS`. */
  notYours: (verb: 'change' | 'delete') => AppError;
  /** 403 for an existing object the caller may not read, where the contract answers 403 (`unreadable: 'refused'`; required then). */
  unreadable?: () => AppError;
  /** 403: another owner (UID) asked for by a caller who may not hand objects over. */
  otherOwner: Record<SharingStep, () => AppError>;
  /** 403: Global asked for by a non-admin. */
  global: Record<SharingStep, () => AppError>;
  /** 400: the new owner does not exist. */
  unknownUser: (uid: number) => AppError;
}

/** What the contract makes different per kind; everything else is the same for every shared object. */
export interface SharingRules {
  /** Admins act on every object of the kind always ('always'), or only in admin mode (library, files). */
  adminActs: 'always' | 'inAdminMode';
  /** An existing object the caller may not read: 404 ('hidden', the object is not revealed) or 403 ('refused': the library). */
  unreadable: 'hidden' | 'refused';
  /** Delete refuses with 403 whether or not the caller may read the object (library; searches' stop and delete). */
  deleteWithoutRead?: boolean;
  /** Who hands an object to another owner on update: an admin, an admin in admin mode (files), nobody (resources). */
  ownerChange: 'admin' | 'adminMode' | 'never';
  /** A non-admin's Global on update: refused (403) or ignored (resources). */
  othersGlobal: 'refused' | 'ignored';
  /** The request field naming the groups (named in the 400 for an unknown group). */
  groupsField: 'GIDs' | 'GroupACL';
  /** `null` groups are stored as NULL ('kept': dashboards) or as no groups. */
  nullGroups: 'kept' | 'empty';
  refusals: Pick<SharingRefusals, 'notFound' | 'notYours'> & Partial<SharingRefusals>;
}

const DEFAULT_REFUSALS: Pick<SharingRefusals, 'otherOwner' | 'global' | 'unknownUser'> = {
  otherOwner: { create: () => refusal('OTHER_OWNER_ADMIN_ONLY'), update: () => refusal('OTHER_OWNER_ADMIN_ONLY') },
  global: { create: () => refusal('GLOBAL_ADMIN_ONLY'), update: () => refusal('GLOBAL_ADMIN_ONLY') },
  unknownUser: (uid) => refusal('OWNER_DOES_NOT_EXIST', uid),
};

/** Preference among objects sharing a GUID: own, via a group, global, then (admin rights) anyone's; not readable: Infinity. */
export const RANK = { own: 0, group: 1, global: 2, admin: 3, none: Number.POSITIVE_INFINITY } as const;

/**
 * The one access policy of shared objects (dashboards, library entries, resources, files,
 * searches and every kind to come): read is the owner, a member of a group it is shared with,
 * anyone when Global, and admins; change and delete the owner and admins; only admins set Global
 * or another owner. `SharingRules` holds what the contract makes different per kind.
 *
 * A new kind: its entity extends `SharedObjectEntity` (shared-object.entity.ts), its request DTOs
 * extend `SharingFieldsDto` (sharing-fields.dto.ts), its `<kind>.access.ts` is one
 * `new SharingPolicy<Entity>({...rules})` whose `refusals` name its codes (at least
 * `<KIND>_NOT_FOUND` and `<KIND>_NOT_YOURS`, added to src/common/errors/codes.ts), and its service
 * checks with `policy.require(caller, row, action)` and shares with `GroupSharing.create` /
 * `GroupSharing.update` (group-sharing.ts).
 */
export class SharingPolicy<T extends SharedObject> {
  readonly refusals: SharingRefusals;

  constructor(readonly rules: SharingRules) {
    if (rules.unreadable === 'refused' && !rules.refusals.unreadable) throw new Error('SharingRules: unreadable "refused" needs refusals.unreadable');
    this.refusals = { ...DEFAULT_REFUSALS, ...rules.refusals };
  }

  /** The caller acts as an admin on objects of this kind. */
  acts(c: Caller): boolean {
    const { auth, adminMode } = asCaller(c);
    return this.rules.adminActs === 'always' ? auth.isAdmin : adminMode;
  }

  /** What the caller reaches without admin rights: own, through a group, global, or nothing. */
  private reach(auth: AuthContext, o: T): number {
    if (isOwner(auth, o)) return RANK.own;
    if (sharesGroupWith(auth, { gids: o.gids ?? [] })) return RANK.group;
    return o.global ? RANK.global : RANK.none;
  }

  rank(c: Caller, o: T): number {
    const r = this.reach(asCaller(c).auth, o);
    return r === RANK.none && this.acts(c) ? RANK.admin : r;
  }

  canRead = (c: Caller, o: T): boolean => this.rank(c, o) !== RANK.none;

  canChange = (c: Caller, o: T): boolean => this.acts(c) || isOwner(asCaller(c).auth, o);

  /** In listings: admin mode lists everything; otherwise what the caller reaches without admin rights. */
  listed = (c: SharingCaller, o: T): boolean => c.adminMode || this.reach(c.auth, o) !== RANK.none;

  /** What the caller may do with the object (product-notes §8 `Can`). */
  permissions(c: Caller, o: T): { Delete: boolean; Modify: boolean; Share: boolean } {
    const mine = this.canChange(c, o);
    return { Delete: mine, Modify: mine, Share: mine };
  }

  /** The object if the caller may do `action`; else 404 (unknown, or hidden) or 403 (see `SharingRules`). */
  require(c: Caller, o: T | null | undefined, action: AccessAction): T {
    if (!o) throw this.refusals.notFound();
    if (!(action === 'delete' && this.rules.deleteWithoutRead) && !this.canRead(c, o)) {
      throw this.rules.unreadable === 'refused' && this.refusals.unreadable ? this.refusals.unreadable() : this.refusals.notFound();
    }
    if (action !== 'read' && !this.canChange(c, o)) throw this.refusals.notYours(action);
    return o;
  }

  /** Another owner (UID): admins on create; on update as `ownerChange` says. */
  requireMaySetOwner(c: Caller, uid: number, step: SharingStep): void {
    const { auth, adminMode } = asCaller(c);
    if (step === 'create' && uid === auth.uid) return;
    const may = step === 'create' || this.rules.ownerChange === 'admin' ? auth.isAdmin : this.rules.ownerChange === 'adminMode' && adminMode;
    if (!may) throw this.refusals.otherOwner[step]();
  }

  requireMaySetGlobal(c: Caller, step: SharingStep): void {
    if (!asCaller(c).auth.isAdmin) throw this.refusals.global[step]();
  }
}
