import { Inject, Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { Caller, SharedObject, SharingPolicy } from './access-policy';
import { requireMayShareWith, widensSharing } from './shareable';

/** The sharing fields of a request: absent keeps (on create: the defaults); a null UID or Global keeps too. */
export interface SharingRequest {
  uid?: number | null;
  gids?: readonly number[] | null;
  global?: boolean | null;
  /** The object's GUID after the request (create), or a new one (update); kinds without GUID reuse leave it out. */
  guid?: string;
}

/** What the checks read: whether a user exists, and (kinds whose GUIDs may be reused) the first holder of a GUID. */
export interface SharingLookups {
  userExists?: (uid: number) => Promise<boolean>;
  firstHolder?: (guid: string) => Promise<number | undefined>;
}

export interface SharingPatch {
  uid?: number;
  gids?: number[] | null;
  global?: boolean;
  guid?: string;
}

/** Which groups exist (provided by the groups feature, a layer up; see `SharingModule.withGroups`). */
export interface GroupDirectory {
  existing(gids: readonly number[]): Promise<number[]>;
}
export const GROUP_DIRECTORY = Symbol('GROUP_DIRECTORY');

const authOf = (c: Caller): AuthContext => ('auth' in c ? c.auth : c);

/**
 * The one check of the groups an object is shared with, for every shareable feature
 * (dashboards, library, resources, files): the groups a request adds must exist (400 naming them
 * and the field) and the caller may add only groups they belong to unless an admin (403).
 * Groups already on the object are not checked again, so an owner can send back a structure an
 * admin shared with other groups. Searches check only membership (`requireMayShareWith`).
 */
@Injectable()
export class GroupSharing {
  constructor(@Inject(GROUP_DIRECTORY) private readonly groups: GroupDirectory) {}

  /** The sharing of a new object: owner (caller unless an admin names another), Global (admins), groups, GUID reuse. */
  async create<T extends SharedObject>(
    policy: SharingPolicy<T>,
    c: Caller,
    req: SharingRequest,
    look: SharingLookups = {},
  ): Promise<{ uid: number; gids: number[] | null; global: boolean }> {
    const auth = authOf(c);
    const uid = req.uid ?? auth.uid;
    policy.requireMaySetOwner(c, uid, 'create');
    if (uid !== auth.uid) await this.requireUserExists(policy, uid, look);
    const global = req.global ?? false;
    if (global) policy.requireMaySetGlobal(c, 'create');
    const gids = groupList(policy, req.gids);
    await this.requireMayShare(auth, policy.rules.groupsField, gids, null);
    if (req.guid !== undefined && look.firstHolder) await this.requireMayShareGuid(auth, { guid: req.guid, uid, shared: (gids?.length ?? 0) > 0 || global }, look.firstHolder);
    return { uid, gids, global };
  }

  /**
   * The sharing part of an update of `cur` (the same for every kind): another owner, Global,
   * groups, a new GUID, each checked by `policy`; then GUID reuse when the change shares further.
   */
  async update<T extends SharedObject & { guid?: string }>(policy: SharingPolicy<T>, c: Caller, cur: T, req: SharingRequest, look: SharingLookups = {}): Promise<SharingPatch> {
    const auth = authOf(c);
    const patch: SharingPatch = {};
    if (req.uid != null && req.uid !== cur.uid) {
      policy.requireMaySetOwner(c, req.uid, 'update');
      await this.requireUserExists(policy, req.uid, look);
      patch.uid = req.uid;
    }
    if (req.global != null && policy.rules.othersGlobal === 'ignored') {
      if (auth.isAdmin) patch.global = req.global;
    } else if (req.global != null && req.global !== cur.global) {
      policy.requireMaySetGlobal(c, 'update');
      patch.global = req.global;
    }
    if (req.gids !== undefined) {
      patch.gids = groupList(policy, req.gids);
      await this.requireMayShare(auth, policy.rules.groupsField, patch.gids, cur.gids);
    }
    if (req.guid !== undefined) patch.guid = req.guid;
    if (look.firstHolder && widensSharing(cur, patch)) {
      const after = { guid: patch.guid ?? cur.guid ?? '', uid: patch.uid ?? cur.uid, shared: (patch.gids ?? cur.gids ?? []).length > 0 || (patch.global ?? cur.global) };
      await this.requireMayShareGuid(auth, after, look.firstHolder);
    }
    return patch;
  }

  private async requireUserExists<T extends SharedObject>(policy: SharingPolicy<T>, uid: number, look: SharingLookups): Promise<void> {
    if (!(await look.userExists?.(uid))) throw policy.refusals.unknownUser(uid);
  }

  async requireMayShare(auth: AuthContext, field: string, gids: readonly number[] | null, before: readonly number[] | null = []): Promise<void> {
    const added = [...new Set(gids ?? [])].filter((g) => !(before ?? []).includes(g));
    if (!added.length) return;
    const known = await this.groups.existing(added);
    const unknown = added.filter((g) => !known.includes(g));
    if (unknown.length) throw refusal('UNKNOWN_GROUPS', unknown.join(', '), field);
    requireMayShareWith(auth, added);
  }

  /**
   * GUID reuse. A GUID names content across owners: kits install the same GUID for everyone,
   * and a GUID resolves to the caller's own object first, then one shared through a group, then a
   * global one. So anyone may keep a private object that reuses a GUID (it overrides the
   * original for its owner only, as the product lets installed content do), but an object whose
   * GUID another owner's object held first may be shared with groups or made global only by an
   * admin: otherwise a member could replace, for a whole group, what another user's GUID names.
   * `shared`: the object is shared (groups or Global) after a change that adds sharing or sets
   * its GUID; `firstHolder`: the owner of the oldest object holding the GUID, if any.
   */
  async requireMayShareGuid(auth: AuthContext, o: { guid: string; uid: number; shared: boolean }, firstHolder: (guid: string) => Promise<number | undefined>): Promise<void> {
    if (auth.isAdmin || !o.shared) return;
    const holder = await firstHolder(o.guid);
    if (holder !== undefined && holder !== o.uid) {
      throw refusal('GUID_OF_ANOTHER_OWNER');
    }
  }
}

/** Groups as stored: without duplicates; none (absent or null) is NULL where the kind keeps it, else empty. */
function groupList<T extends SharedObject>(policy: SharingPolicy<T>, gids: readonly number[] | null | undefined): number[] | null {
  if (gids == null) return policy.rules.nullGroups === 'kept' ? null : [];
  return [...new Set(gids)];
}
