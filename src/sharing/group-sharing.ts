import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { GroupsService } from '../groups/groups.service';
import { badRequest, forbidden } from '../common/errors/app-error';
import { requireMayShareWith } from './shareable';

/**
 * The one check of the groups an object is shared with, for every shareable feature
 * (dashboards, library, resources, files): the groups a request adds must exist (400 naming them
 * and the field) and the caller may add only groups they belong to unless an admin (403).
 * Groups already on the object are not checked again, so an owner can send back a structure an
 * admin shared with other groups. Searches check only membership (`requireMayShareWith`).
 */
@Injectable()
export class GroupSharing {
  constructor(private readonly groups: GroupsService) {}

  async requireMayShare(auth: AuthContext, field: string, gids: readonly number[] | null, before: readonly number[] | null = []): Promise<void> {
    const added = [...new Set(gids ?? [])].filter((g) => !(before ?? []).includes(g));
    if (!added.length) return;
    const known = await this.groups.existing(added);
    const unknown = added.filter((g) => !known.includes(g));
    if (unknown.length) throw badRequest(`Unknown group ${unknown.join(', ')} in ${field}`);
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
      throw forbidden("This GUID belongs to another user's object: a copy that reuses it stays private (only an admin may share it with groups or make it global)");
    }
  }
}
