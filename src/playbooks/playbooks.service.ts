import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { refusal } from '../common/errors/app-error';
import { AuthContext } from '../identity/auth.types';
import { sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { decodeBase64Field } from './playbook-bytes';
import { PlaybookEntity } from './playbook.entity';
import { playbookPolicy as policy } from './playbooks.access';
import { CreatePlaybookDto, MAX_PLAYBOOK_METADATA, PlaybookAuthorDto, PlaybookDto, toPlaybookDto, UpdatePlaybookDto } from './playbooks.dto';
import { PlaybookPatch, PlaybooksRepository } from './playbooks.repository';

const EMPTY = Buffer.alloc(0);

/** A name: 1-256 characters, not only spaces (the product's console shows an empty name as none). */
function playbookName(name: string): string {
  if (!name.trim()) throw refusal('PLAYBOOK_NAME_REQUIRED');
  return name;
}

function author(a: PlaybookAuthorDto | null | undefined): Pick<PlaybookEntity, 'authorName' | 'authorEmail' | 'authorCompany' | 'authorUrl'> {
  return { authorName: a?.Name ?? '', authorEmail: a?.Email ?? '', authorCompany: a?.Company ?? '', authorUrl: a?.URL ?? '' };
}

/** Playbooks (the product's /api/playbooks) under the shared-object rules (playbooks.access.ts). */
@Injectable()
export class PlaybooksService {
  constructor(
    private readonly repo: PlaybooksRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
    @Inject(APP_CONFIG) private readonly cfg: AppConfig,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  private dto(auth: AuthContext, p: PlaybookEntity, withBody = true): PlaybookDto {
    return toPlaybookDto(p, policy.permissions(auth, p), withBody);
  }

  private body(b64: string): Buffer {
    return decodeBase64Field(b64, 'Body', this.cfg.maxPlaybookSize, 'MAX_PLAYBOOK_SIZE');
  }

  private metadata(b64: string | null): Buffer {
    return b64 === null ? EMPTY : decodeBase64Field(b64, 'Metadata', MAX_PLAYBOOK_METADATA);
  }

  /** Own, shared with the caller's groups, and global playbooks, without their Body; `?admin=true` (an admin session): every playbook. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<PlaybookDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((p) => policy.listed(c, p)).map((p) => this.dto(auth, p, false));
  }

  /**
   * Path ID -> playbook, as the product's client addresses one ("the UUID or GUID"): the playbook
   * with this UUID if the caller may read it, else the one with this GUID the caller reaches (own,
   * a group's, global), else (admins) anyone's with that GUID. None: 404.
   */
  private async resolve(auth: AuthContext, id: string): Promise<PlaybookEntity | null> {
    const byUuid = await this.repo.findByUuid(id);
    if (byUuid && policy.canRead(auth, byUuid)) return byUuid;
    const byGuid = (await this.repo.findVisibleByGuid(id, auth.uid, auth.gids)) ?? (policy.acts(auth) ? await this.repo.findAnyByGuid(id) : null);
    return byGuid ?? byUuid;
  }

  async get(auth: AuthContext, id: string): Promise<PlaybookDto> {
    return this.dto(auth, policy.require(auth, await this.resolve(auth, id), 'read'));
  }

  /** The new playbook's UUID (the product answers it as a bare JSON string). */
  async create(auth: AuthContext, dto: CreatePlaybookDto): Promise<string> {
    const name = playbookName(dto.Name);
    const body = dto.Body == null ? EMPTY : this.body(dto.Body);
    const metadata = this.metadata(dto.Metadata ?? null);
    const guid = (dto.GUID ?? randomUUID()).toLowerCase();
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    const uuid = randomUUID();
    const row = { uuid, guid, uid, gids: gids ?? [], global, labels: dto.Labels ?? [], name, description: dto.Desc ?? '', body, metadata, ...author(dto.Author) };
    if (!(await this.repo.insert(row))) throw refusal('PLAYBOOK_GUID_TAKEN', guid);
    return uuid;
  }

  /** Absent fields keep their value (see UpdatePlaybookDto); the updated playbook. */
  async update(auth: AuthContext, id: string, dto: UpdatePlaybookDto): Promise<PlaybookDto> {
    const p = policy.require(auth, await this.resolve(auth, id), 'change');
    const patch: PlaybookPatch = {};
    if (dto.Name != null) patch.name = playbookName(dto.Name);
    if (dto.Body != null) patch.body = this.body(dto.Body);
    if (dto.Metadata !== undefined) patch.metadata = this.metadata(dto.Metadata);
    if (dto.Desc !== undefined) patch.description = dto.Desc ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (dto.Author !== undefined) Object.assign(patch, author(dto.Author));
    const guid = dto.GUID === undefined || dto.GUID.toLowerCase() === p.guid ? undefined : dto.GUID.toLowerCase();
    const { gids, ...sharing } = await this.sharing.update(policy, auth, p, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    Object.assign(patch, sharing, gids !== undefined && { gids: gids ?? [] });
    if (!(await this.repo.update(p.uuid, patch))) throw refusal('PLAYBOOK_GUID_TAKEN', patch.guid ?? p.guid);
    const updated = await this.repo.findByUuid(p.uuid);
    if (!updated) throw refusal('PLAYBOOK_NOT_FOUND');
    return this.dto(auth, updated);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const p = policy.require(auth, await this.resolve(auth, id), 'delete');
    await this.repo.delete(p.uuid);
  }
}
