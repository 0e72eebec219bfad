import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { parseJsonField } from '../common/validation/json-depth';
import { sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { GroupsService } from '../groups/groups.service';
import { UsersService } from '../users/users.service';
import { DashboardEntity } from './dashboard.entity';
import { DashboardRef, MAX_DASHBOARD_ID } from './dashboard-ref.pipe';
import { dashboardPolicy as policy, requireMayListGroup } from './dashboards.access';
import { CreateDashboardDto, DashboardDto, toDashboardDto, UpdateDashboardDto } from './dashboards.dto';
import { DashboardPatch, DashboardsRepository } from './dashboards.repository';

/** Random ID in 1..2^53-1 from 7 random bytes (53 bits kept, so the arithmetic stays exact). */
export function randomDashboardId(): number {
  const b = randomBytes(7);
  b[0] &= 0x1f;
  let n = 0;
  for (const byte of b) n = n * 256 + byte;
  return (n % MAX_DASHBOARD_ID) + 1;
}

/** Dashboard `Data`: blank (absent, null, whitespace string) is `{}`; a string is JSON text; anything else is stored as sent. */
export function normalizeData(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    if (!value.trim()) return {};
    return parseJsonField(value, 'Data');
  }
  return value;
}

/** A dashboard with the version of it that was read (its ETag, quoted). */
export interface VersionedDashboard {
  dashboard: DashboardDto;
  etag: string;
}

export const etagOf = (version: string): string => `"${version}"`;

/**
 * The versions an `If-Match` header names: `*` (any: no condition) or a list of entity tags,
 * quoted or not. If-Match compares strongly (RFC 9110), so a weak tag (`W/"..."`) is kept as
 * written and, like anything that is not a version of ours, matches nothing.
 */
export function parseIfMatch(header: string | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const tags = header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.length === 0 || tags.includes('*')) return undefined;
  return tags.map((t) => (t.startsWith('W/') ? t : t.replace(/^"(.*)"$/, '$1')));
}

export const preconditionFailed = () => refusal('DASHBOARD_CHANGED');

const ID_ATTEMPTS = 8;

/** Dashboards (contract: Dashboards, rules 1-6; product-notes §8 for update semantics). */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly sharing: GroupSharing,
  ) {}

  /** Resolves `{id}` (numeric ID or GUID) to one dashboard the caller can read, or 404. */
  private async resolve(auth: AuthContext, ref: DashboardRef): Promise<DashboardEntity> {
    if ('id' in ref) return policy.require(auth, await this.repo.findById(ref.id), 'read');
    const readable = (await this.repo.findByGuid(ref.guid)).filter((d) => policy.canRead(auth, d));
    readable.sort((a, b) => policy.rank(auth, a) - policy.rank(auth, b));
    return policy.require(auth, readable[0], 'read');
  }

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  private visible(auth: AuthContext, list: DashboardEntity[]): DashboardDto[] {
    return list.filter((d) => policy.canRead(auth, d)).map(toDashboardDto);
  }

  async create(auth: AuthContext, dto: CreateDashboardDto): Promise<number> {
    const guid = isUuid(dto.GUID) ? dto.GUID.toLowerCase() : randomUUID();
    const sharing = await this.sharing.create(policy, auth, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    const row = {
      guid,
      ...sharing,
      name: dto.Name,
      description: dto.Description ?? '',
      labels: dto.Labels ?? null,
      data: normalizeData(dto.Data),
    };
    for (let i = 0; i < ID_ATTEMPTS; i++) {
      const id = randomDashboardId();
      if (await this.repo.insertIfIdFree({ id, ...row })) return id;
    }
    throw refusal('DASHBOARD_ID_UNAVAILABLE');
  }

  /** Everything the caller can read (own, through a group, global); admins with `?admin=true`: all. */
  async list(auth: AuthContext, admin?: boolean): Promise<DashboardDto[]> {
    if (sharingCaller(auth, admin).adminMode) return this.repo.listAll().then((l) => l.map(toDashboardDto));
    return this.visible(auth, await this.repo.listReachable(auth.uid, auth.gids, true));
  }

  async listAll(auth: AuthContext): Promise<DashboardDto[]> {
    return this.list(auth, true);
  }

  /** Owned by `uid` (group access excluded), and of those only what the caller may read. */
  async listOfUser(auth: AuthContext, uid: number): Promise<DashboardDto[]> {
    if (!(await this.users.exists(uid))) throw refusal('USER_NOT_FOUND');
    return this.visible(auth, await this.repo.listOwnedBy(uid));
  }

  async listOfGroup(auth: AuthContext, gid: number): Promise<DashboardDto[]> {
    await this.groups.requireExists(gid);
    requireMayListGroup(auth, gid);
    return this.visible(auth, await this.repo.listSharedWith(gid));
  }

  async get(auth: AuthContext, ref: DashboardRef): Promise<DashboardDto> {
    return toDashboardDto(await this.resolve(auth, ref));
  }

  /**
   * The dashboard with its ETag. The version is read before the row it describes, so a save
   * in between can only make the ETag older than the body (a later If-Match then fails safe).
   */
  async getVersioned(auth: AuthContext, ref: DashboardRef): Promise<VersionedDashboard> {
    const id = 'id' in ref ? ref.id : (await this.resolve(auth, ref)).id;
    const version = await this.repo.versionOf(id);
    const d = await this.resolve(auth, { id });
    if (version === null) throw refusal('DASHBOARD_NOT_FOUND');
    return { dashboard: toDashboardDto(d), etag: etagOf(version) };
  }

  /**
   * Absent field: keep; present field (even empty or null): replace (product-notes §8). With
   * `ifMatch` (an If-Match header) nothing changes unless the stored version is still one it
   * names (else 412). Answers with the version this update wrote: the body is read after it, so
   * a save in between can only make the ETag older than the body (a later If-Match fails safe).
   */
  async update(auth: AuthContext, ref: DashboardRef, dto: UpdateDashboardDto, ifMatch?: string): Promise<VersionedDashboard> {
    const d = policy.require(auth, await this.resolve(auth, ref), 'change');
    const guid = isUuid(dto.GUID) ? dto.GUID.toLowerCase() : undefined;
    const patch: DashboardPatch = await this.sharing.update(policy, auth, d, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    if (dto.Name !== undefined) patch.name = dto.Name ?? '';
    if (dto.Description !== undefined) patch.description = dto.Description ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels;
    if (dto.Data !== undefined) patch.data = normalizeData(dto.Data);
    const ifVersion = parseIfMatch(ifMatch);
    const version = await this.repo.update(d.id, patch, ifVersion);
    if (version === null) {
      if (ifVersion && (await this.repo.versionOf(d.id)) !== null) throw preconditionFailed();
      throw refusal('DASHBOARD_NOT_FOUND');
    }
    const updated = await this.repo.findById(d.id);
    if (!updated) throw refusal('DASHBOARD_NOT_FOUND');
    return { dashboard: toDashboardDto(updated), etag: etagOf(version) };
  }

  async delete(auth: AuthContext, ref: DashboardRef): Promise<void> {
    const d = policy.require(auth, await this.resolve(auth, ref), 'delete');
    await this.repo.delete(d.id);
  }
}
