import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { SharingCaller, sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { PivotEntity } from './pivot.entity';
import { normalizeContents } from './pivot-contents';
import { pivotPolicy as policy } from './pivots.access';
import { CreatePivotDto, PivotDto, toPivotDto, UpdatePivotDto } from './pivots.dto';
import { PivotPatch, PivotsRepository } from './pivots.repository';

/** GUID in a creation body: absent, null or "" is a new one; anything else must be a UUID. */
function bodyGuid(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isUuid(value)) throw refusal('INVALID_GUID');
  return value.toLowerCase();
}

/** Actionables (the product's /api/pivots) under the shared-object rules (pivots.access.ts). */
@Injectable()
export class PivotsService {
  constructor(
    private readonly repo: PivotsRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  private dto(c: SharingCaller, p: PivotEntity): PivotDto {
    return toPivotDto(p, policy.permissions(c, p));
  }

  /**
   * `{id}` is a GUID (wiki api/actionables.md: users always name one by GUID); in admin mode a
   * ThingUUID too, which wins. Of the actionables holding a GUID, the caller's own, then one
   * shared through a group, then a global one (as dashboards resolve GUIDs); an admin reaches
   * others' only after those.
   */
  private async resolve(c: SharingCaller, id: string): Promise<PivotEntity | undefined> {
    if (c.adminMode) {
      const direct = await this.repo.findByThingUuid(id);
      if (direct) return direct;
    }
    const readable = (await this.repo.findByGuid(id)).filter((p) => policy.canRead(c, p));
    readable.sort((a, b) => policy.rank(c, a) - policy.rank(c, b));
    return readable[0];
  }

  /** Own, shared with the caller's groups, and global actionables; with `?admin=true` (an admin session) every one. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<PivotDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((p) => policy.listed(c, p)).map((p) => this.dto(c, p));
  }

  async get(auth: AuthContext, id: string, adminFlag?: boolean): Promise<PivotDto> {
    const c = sharingCaller(auth, adminFlag);
    return this.dto(c, policy.require(c, await this.resolve(c, id), 'read'));
  }

  /** The new actionable's GUID (the product answers it alone). */
  async create(auth: AuthContext, dto: CreatePivotDto): Promise<string> {
    const c = sharingCaller(auth, false);
    const contents = normalizeContents(dto.Contents);
    const guid = bodyGuid(dto.GUID) ?? randomUUID();
    const { uid, gids, global } = await this.sharing.create(policy, c, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    await this.repo.insert({
      thingUuid: randomUUID(),
      guid,
      uid,
      gids: gids ?? [],
      global,
      labels: dto.Labels ?? [],
      name: dto.Name ?? '',
      description: dto.Description ?? '',
      contents,
      disabled: dto.Disabled ?? false,
    });
    return guid;
  }

  /** Absent or null fields keep their value (the GUID and ThingUUID never change); the updated actionable. */
  async update(auth: AuthContext, id: string, dto: UpdatePivotDto, adminFlag?: boolean): Promise<PivotDto> {
    const c = sharingCaller(auth, adminFlag);
    const p = policy.require(c, await this.resolve(c, id), 'change');
    const contents = dto.Contents != null ? normalizeContents(dto.Contents) : undefined;
    const { gids, guid: _guid, ...sharing } = await this.sharing.update(policy, c, p, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const patch: PivotPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (contents) patch.contents = contents;
    if (dto.Name != null) patch.name = dto.Name;
    if (dto.Description != null) patch.description = dto.Description;
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (dto.Disabled != null) patch.disabled = dto.Disabled;
    await this.repo.update(p.thingUuid, patch);
    const updated = await this.repo.findByThingUuid(p.thingUuid);
    if (!updated) throw refusal('PIVOT_NOT_FOUND');
    return this.dto(c, updated);
  }

  async delete(auth: AuthContext, id: string, adminFlag?: boolean): Promise<void> {
    const c = sharingCaller(auth, adminFlag);
    const p = policy.require(c, await this.resolve(c, id), 'delete');
    await this.repo.delete(p.thingUuid);
  }
}
