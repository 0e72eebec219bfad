import { AuthContext } from '../identity/auth.types';
import { forbidden, notFound } from '../common/errors/app-error';
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

/** The refusals of a kind; those left out read as the dashboards' and the library's. */
export interface SharingMessages {
  /** 403 for an object the caller may read but not change or delete. */
  notYours: (verb: 'change' | 'delete') => string;
  /** 403 for an existing object the caller may not read, where the contract answers 403 (`unreadable: 'refused'`). */
  unreadable: string;
  /** 403: another owner (UID) asked for by a caller who may not hand objects over. */
  otherOwner: Record<SharingStep, string>;
  /** 403: Global asked for by a non-admin. */
  global: Record<SharingStep, string>;
  /** 400: the new owner does not exist. */
  unknownUser: (uid: number) => string;
}

/** What the contract makes different per kind; everything else is the same for every shared object. */
export interface SharingRules {
  /** `"<noun> not found"` (404). */
  noun: string;
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
  messages?: Partial<SharingMessages>;
}

const DEFAULT_MESSAGES: Omit<SharingMessages, 'notYours' | 'unreadable'> = {
  otherOwner: { create: 'Only admins may set another owner (UID)', update: 'Only admins may set another owner (UID)' },
  global: { create: 'Only admins may set Global', update: 'Only admins may set Global' },
  unknownUser: (uid) => `User ${uid} does not exist`,
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
 * `new SharingPolicy<Entity>({...rules})`, and its service checks with `policy.require(caller,
 * row, action)` and shares with `GroupSharing.create` / `GroupSharing.update` (group-sharing.ts).
 */
export class SharingPolicy<T extends SharedObject> {
  readonly messages: SharingMessages;

  constructor(readonly rules: SharingRules) {
    const noun = rules.noun.toLowerCase();
    this.messages = {
      notYours: (verb) => `Only the owner or an admin may ${verb} this ${noun}`,
      unreadable: `You cannot access this ${noun}`,
      ...DEFAULT_MESSAGES,
      ...rules.messages,
    };
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
    if (!o) throw notFound(this.rules.noun);
    if (!(action === 'delete' && this.rules.deleteWithoutRead) && !this.canRead(c, o)) {
      throw this.rules.unreadable === 'hidden' ? notFound(this.rules.noun) : forbidden(this.messages.unreadable);
    }
    if (action !== 'read' && !this.canChange(c, o)) throw forbidden(this.messages.notYours(action));
    return o;
  }

  /** Another owner (UID): admins on create; on update as `ownerChange` says. */
  requireMaySetOwner(c: Caller, uid: number, step: SharingStep): void {
    const { auth, adminMode } = asCaller(c);
    if (step === 'create' && uid === auth.uid) return;
    const may = step === 'create' || this.rules.ownerChange === 'admin' ? auth.isAdmin : this.rules.ownerChange === 'adminMode' && adminMode;
    if (!may) throw forbidden(this.messages.otherOwner[step]);
  }

  requireMaySetGlobal(c: Caller, step: SharingStep): void {
    if (!asCaller(c).auth.isAdmin) throw forbidden(this.messages.global[step]);
  }
}
