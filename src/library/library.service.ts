import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { parseJsonField } from '../common/validation/json-depth';
import { SharingCaller as LibraryCaller, RANK, sharingCaller as libraryCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { libraryPolicy as policy } from './library.access';
import { CreateLibraryEntryDto, LibraryEntryDto, toLibraryEntryDto, UpdateLibraryEntryDto } from './library.dto';
import { LibraryEntryEntity } from './library-entry.entity';
import { LibraryEntryPatch, LibraryRepository } from './library.repository';

/** `Metadata`: absent/null/blank is none; a string is JSON text (must parse); anything else is stored as sent. */
export function normalizeMetadata(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (!value.trim()) return null;
    return parseJsonField(value, 'Metadata');
  }
  return value;
}

/** GUID in a body: absent, null or "" means none; anything else must be a UUID. */
function bodyGuid(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isUuid(value)) throw refusal('INVALID_GUID');
  return value.toLowerCase();
}

/** The search library (contract: Search library rules 1-6; product-notes §8 `Can`, `WriteAccess`). */
@Injectable()
export class LibraryService {
  constructor(
    private readonly repo: LibraryRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
  ) {}

  private dto(c: LibraryCaller, e: LibraryEntryEntity): LibraryEntryDto {
    return toLibraryEntryDto(e, policy.permissions(c, e));
  }

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  /**
   * `{id}` is a ThingUUID or a GUID (rule 2). A ThingUUID match wins. For a GUID, the entry the
   * caller can access is chosen: own, then via a group, then global; in admin mode own, else the
   * only one (several: 400, use the ThingUUID). Exists but inaccessible: the first such entry (403 later).
   */
  private async resolve(c: LibraryCaller, id: string): Promise<LibraryEntryEntity | null> {
    const direct = await this.repo.findByThingUuid(id);
    if (direct) return direct;
    const all = await this.repo.findByGuid(id);
    if (!all.length) return null;
    const readable = all.filter((e) => policy.canRead(c, e)).sort((a, b) => policy.rank(c, a) - policy.rank(c, b));
    if (!readable.length) return all[0];
    if (c.adminMode && policy.rank(c, readable[0]) > RANK.own && readable.length > 1) {
      throw refusal('LIBRARY_GUID_AMBIGUOUS');
    }
    return readable[0];
  }

  /** Rule 1: own entries, admin or not; admins with `?admin=true`: every entry. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<LibraryEntryDto[]> {
    const c = libraryCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listOwnedBy(auth.uid);
    return rows.filter((e) => policy.canRead(c, e)).map((e) => this.dto(c, e));
  }

  async get(auth: AuthContext, id: string, adminFlag?: boolean): Promise<LibraryEntryDto> {
    const c = libraryCaller(auth, adminFlag);
    return this.dto(c, policy.require(c, await this.resolve(c, id), 'read'));
  }

  async create(auth: AuthContext, dto: CreateLibraryEntryDto): Promise<LibraryEntryDto> {
    const c = libraryCaller(auth, false);
    const guid = bodyGuid(dto.GUID) ?? randomUUID();
    const { uid, gids, global } = await this.sharing.create(policy, c, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    const thingUuid = randomUUID();
    await this.repo.insert({
      thingUuid,
      guid,
      uid,
      gids: gids ?? [],
      global,
      name: dto.Name,
      description: dto.Description ?? '',
      query: dto.Query,
      labels: dto.Labels ?? [],
      metadata: normalizeMetadata(dto.Metadata),
    });
    const created = await this.repo.findByThingUuid(thingUuid);
    return this.dto(c, created!);
  }

  /** Absent fields keep their value; present ones (even empty) replace it. */
  async update(auth: AuthContext, id: string, dto: UpdateLibraryEntryDto, adminFlag?: boolean): Promise<LibraryEntryDto> {
    const c = libraryCaller(auth, adminFlag);
    const e = policy.require(c, await this.resolve(c, id), 'change');
    const { gids, ...sharing } = await this.sharing.update(policy, c, e, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid: bodyGuid(dto.GUID) }, this.lookups);
    const patch: LibraryEntryPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (dto.Name !== undefined) patch.name = dto.Name ?? '';
    if (dto.Description !== undefined) patch.description = dto.Description ?? '';
    if (dto.Query !== undefined) patch.query = dto.Query ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (dto.Metadata !== undefined) patch.metadata = normalizeMetadata(dto.Metadata);
    await this.repo.update(e.thingUuid, patch);
    const updated = await this.repo.findByThingUuid(e.thingUuid);
    if (!updated) throw refusal('LIBRARY_ENTRY_NOT_FOUND');
    return this.dto(c, updated);
  }

  /** Rules 4 and 5: the owner, or an admin with `?admin=true`; everyone else 403. */
  async delete(auth: AuthContext, id: string, adminFlag?: boolean): Promise<void> {
    const c = libraryCaller(auth, adminFlag);
    const e = policy.require(c, await this.resolve(c, id), 'delete');
    await this.repo.delete(e.thingUuid);
  }
}
