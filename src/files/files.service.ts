import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { AuthContext } from '../identity/auth.types';
import { AccessAction, SharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { refusal } from '../common/errors/app-error';
import { parseJsonField } from '../common/validation/json-depth';
import { BlobStore, StoredUpload } from '../storage/blob-store';
import { isDisplayName } from '../storage/display-name';
import { UsersService } from '../users/users.service';
import { filePolicy as policy } from './files.access';
import { FileCreateMetaDto, FileMetaDto, FileUploadFieldsDto, toUserFileDto, UserFileDto } from './files.dto';
import { FilesRepository, UserFileMetaPatch } from './files.repository';
import { UserFileEntity } from './user-file.entity';

export const FILE_BLOBS = 'FILE_BLOBS';
const OPEN_ATTEMPTS = 5;

function describe(errors: ValidationError[]): string {
  const out: string[] = [];
  for (const e of errors) {
    out.push(...Object.values(e.constraints ?? {}));
    if (e.children?.length) out.push(describe(e.children));
  }
  return out.join('; ');
}

/** Validates an untrusted object (the `meta` JSON, or the simple format's fields) like the global pipe does. */
async function validated<T extends object>(cls: new () => T, plain: object, what: string): Promise<T> {
  const dto = plainToInstance(cls, plain);
  const errors = await validate(dto, { whitelist: true, forbidUnknownValues: true, stopAtFirstError: true });
  if (errors.length) throw refusal('FILE_FIELDS_INVALID', what, describe(errors));
  return dto;
}

export interface OpenFile {
  meta: UserFileEntity;
  handle: FileHandle;
}

/** User files: metadata in PostgreSQL, contents as immutable blobs (see BlobStore). */
@Injectable()
export class FilesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('FilesService');

  constructor(
    private readonly repo: FilesRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
    @Inject(FILE_BLOBS) private readonly blobs: BlobStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const removed = await this.blobs.recover(() => this.repo.contentIds());
    if (removed) this.logger.log(`removed ${removed} unreferenced file blobs`);
  }

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  async list(c: SharingCaller): Promise<UserFileDto[]> {
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listVisible(c.auth.uid, c.auth.gids);
    return rows.map(toUserFileDto);
  }

  /** Path ID -> file: the GUID (winner order) or, in admin mode, the ThingUUID; each falls back to the other. */
  private async resolve(c: SharingCaller, id: string, action: AccessAction): Promise<UserFileEntity> {
    const f = c.adminMode
      ? ((await this.repo.findByThing(id)) ?? (await this.repo.findAnyByGuid(id, c.auth.uid)))
      : ((await this.repo.findVisibleByGuid(id, c.auth.uid, c.auth.gids)) ?? (await this.repo.findByThing(id)));
    return policy.require(c, f, action);
  }

  async details(c: SharingCaller, id: string): Promise<UserFileDto> {
    return toUserFileDto(await this.resolve(c, id, 'read'));
  }

  private async parseCreateFields(fields: FileUploadFieldsDto): Promise<FileCreateMetaDto> {
    if (fields.meta !== undefined) {
      const parsed = parseJsonField(fields.meta, 'Field "meta"');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refusal('FILE_META_NOT_AN_OBJECT');
      return validated(FileCreateMetaDto, parsed, 'meta');
    }
    const simple: Record<string, unknown> = {};
    if (fields.name !== undefined) simple.Name = fields.name;
    if (fields.desc !== undefined) simple.Desc = fields.desc;
    if (fields.guid !== undefined && fields.guid !== '') simple.GUID = fields.guid;
    return validated(FileCreateMetaDto, simple, 'file fields (name, desc, guid)');
  }

  /** Both multipart formats (simple: name, desc, guid; detailed: meta). The client's file name is a display-name fallback only. */
  async create(auth: AuthContext, fields: FileUploadFieldsDto, upload: StoredUpload): Promise<UserFileDto> {
    const meta = await this.parseCreateFields(fields);
    const guid = (meta.GUID ?? randomUUID()).toLowerCase();
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: meta.UID, gids: meta.GIDs, global: meta.Global, guid }, this.lookups);
    const name = meta.Name ?? (isDisplayName(upload.originalName) ? upload.originalName : undefined);
    if (name === undefined) throw refusal('FILE_NAME_REQUIRED');
    const contentId = await this.blobs.commit(upload);
    try {
      const row = await this.repo.insert({
        thingUuid: randomUUID(),
        guid,
        uid,
        gids: gids ?? [],
        global,
        name,
        description: meta.Desc ?? '',
        labels: meta.Labels ?? [],
        contentId,
        size: upload.size,
        hash: upload.sha256,
        contentType: upload.contentType,
      });
      return toUserFileDto(row);
    } catch (e) {
      await this.blobs.remove(contentId);
      throw e;
    }
  }

  async replaceContents(c: SharingCaller, id: string, upload: StoredUpload): Promise<UserFileDto> {
    const cur = await this.resolve(c, id, 'change');
    const contentId = await this.blobs.commit(upload);
    let result: Awaited<ReturnType<FilesRepository['replaceContents']>>;
    try {
      result = await this.repo.replaceContents(cur.thingUuid, { contentId, size: upload.size, hash: upload.sha256, contentType: upload.contentType });
    } catch (e) {
      await this.blobs.remove(contentId);
      throw e;
    }
    if (!result) {
      await this.blobs.remove(contentId);
      throw refusal('FILE_NOT_FOUND');
    }
    await this.blobs.remove(result.previous);
    return toUserFileDto(result.row);
  }

  /** UID (admin mode only), GIDs, Global (admins only), Name, Desc, Labels; anything else is ignored. */
  async patch(c: SharingCaller, id: string, dto: FileMetaDto): Promise<UserFileDto> {
    const cur = await this.resolve(c, id, 'change');
    const { gids, ...sharing } = await this.sharing.update(policy, c, cur, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const patch: UserFileMetaPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (dto.Name !== undefined) patch.name = dto.Name;
    if (dto.Desc !== undefined) patch.description = dto.Desc;
    if (dto.Labels !== undefined) patch.labels = dto.Labels;
    if (!Object.keys(patch).length) return toUserFileDto(cur);
    const row = await this.repo.updateMeta(cur.thingUuid, patch);
    if (!row) throw refusal('FILE_NOT_FOUND');
    return toUserFileDto(row);
  }

  async delete(c: SharingCaller, id: string): Promise<void> {
    const cur = await this.resolve(c, id, 'delete');
    const gone = await this.repo.delete(cur.thingUuid);
    if (!gone) throw refusal('FILE_NOT_FOUND');
    await this.blobs.remove(gone.contentId);
  }

  /** Metadata and an open handle on the blob it names (consistent even during a replacement). */
  async open(c: SharingCaller, id: string): Promise<OpenFile> {
    for (let i = 0; i < OPEN_ATTEMPTS; i++) {
      const meta = await this.resolve(c, id, 'read');
      const handle = await this.blobs.open(meta.contentId);
      if (handle) return { meta, handle };
    }
    throw refusal('FILE_BUSY');
  }
}
