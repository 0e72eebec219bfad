import { Injectable } from '@nestjs/common';
import { AuthContext } from '../../auth/auth.types';
import { GroupsService } from '../../groups/groups.service';
import { badRequest } from '../errors/app-error';
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
}
