import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { AuthContext } from '../identity/auth.types';
import { GroupSharing } from '../sharing/group-sharing';
import { widensSharing } from '../sharing/shareable';
import { AppError, badRequest, forbidden, notFound } from '../common/errors/app-error';
import { parseJsonField } from '../common/validation/json-depth';
import { BlobStore, StoredUpload } from '../storage/blob-store';
import { isDisplayName } from '../storage/display-name';
import { UsersService } from '../users/users.service';
import { canChangeOwner, canCreateFor, canSetGlobal, FileAction, FileCaller, listsEverything, requireFileAccess } from './files.access';
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
  if (errors.length) throw badRequest(`Invalid ${what}: ${describe(errors)}`);
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

  async list(c: FileCaller): Promise<UserFileDto[]> {
    const rows = listsEverything(c) ? await this.repo.listAll() : await this.repo.listVisible(c.auth.uid, c.auth.gids);
    return rows.map(toUserFileDto);
  }

  /** Path ID -> file: the GUID (winner order) or, in admin mode, the ThingUUID; each falls back to the other. */
  private async resolve(c: FileCaller, id: string, action: FileAction): Promise<UserFileEntity> {
    const f = c.adminMode
      ? ((await this.repo.findByThing(id)) ?? (await this.repo.findAnyByGuid(id, c.auth.uid)))
      : ((await this.repo.findVisibleByGuid(id, c.auth.uid, c.auth.gids)) ?? (await this.repo.findByThing(id)));
    return requireFileAccess(c, f, action);
  }

  async details(c: FileCaller, id: string): Promise<UserFileDto> {
    return toUserFileDto(await this.resolve(c, id, 'read'));
  }

  private async parseCreateFields(fields: FileUploadFieldsDto): Promise<FileCreateMetaDto> {
    if (fields.meta !== undefined) {
      const parsed = parseJsonField(fields.meta, 'Field "meta"');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('Field "meta" must be a JSON object');
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
    const uid = meta.UID ?? auth.uid;
    if (!canCreateFor(auth, uid)) throw forbidden('Only admins can create files for another user');
    if (uid !== auth.uid && !(await this.users.exists(uid))) throw badRequest(`Unknown user ${uid}`);
    if (meta.Global && !canSetGlobal(auth)) throw forbidden('Only admins can create global files');
    const gids = meta.GIDs ?? [];
    await this.sharing.requireMayShare(auth, 'GIDs', gids);
    const name = meta.Name ?? (isDisplayName(upload.originalName) ? upload.originalName : undefined);
    if (name === undefined) throw badRequest('A file name is required (field "name", or "Name" in "meta")');
    const guid = (meta.GUID ?? randomUUID()).toLowerCase();
    await this.sharing.requireMayShareGuid(auth, { guid, uid, shared: gids.length > 0 || !!meta.Global }, (g) => this.repo.firstHolderOfGuid(g));
    const contentId = await this.blobs.commit(upload);
    try {
      const row = await this.repo.insert({
        thingUuid: randomUUID(),
        guid,
        uid,
        gids,
        global: meta.Global ?? false,
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

  async replaceContents(c: FileCaller, id: string, upload: StoredUpload): Promise<UserFileDto> {
    const cur = await this.resolve(c, id, 'write');
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
      throw notFound('File');
    }
    await this.blobs.remove(result.previous);
    return toUserFileDto(result.row);
  }

  /** UID (admin mode only), GIDs, Global (admins only), Name, Desc, Labels; anything else is ignored. */
  async patch(c: FileCaller, id: string, dto: FileMetaDto): Promise<UserFileDto> {
    const cur = await this.resolve(c, id, 'write');
    const patch: UserFileMetaPatch = {};
    if (dto.UID !== undefined && dto.UID !== cur.uid) {
      if (!canChangeOwner(c)) throw forbidden("Only an admin using admin=true can change a file's UID");
      if (!(await this.users.exists(dto.UID))) throw badRequest(`Unknown user ${dto.UID}`);
      patch.uid = dto.UID;
    }
    if (dto.GIDs !== undefined) {
      await this.sharing.requireMayShare(c.auth, 'GIDs', dto.GIDs, cur.gids);
      patch.gids = dto.GIDs;
    }
    if (dto.Global !== undefined && dto.Global !== cur.global) {
      if (!canSetGlobal(c.auth)) throw forbidden('Only admins can set Global');
      patch.global = dto.Global;
    }
    if (widensSharing(cur, patch)) {
      const after = { guid: cur.guid, uid: patch.uid ?? cur.uid, shared: (patch.gids ?? cur.gids).length > 0 || (patch.global ?? cur.global) };
      await this.sharing.requireMayShareGuid(c.auth, after, (g) => this.repo.firstHolderOfGuid(g));
    }
    if (dto.Name !== undefined) patch.name = dto.Name;
    if (dto.Desc !== undefined) patch.description = dto.Desc;
    if (dto.Labels !== undefined) patch.labels = dto.Labels;
    if (!Object.keys(patch).length) return toUserFileDto(cur);
    const row = await this.repo.updateMeta(cur.thingUuid, patch);
    if (!row) throw notFound('File');
    return toUserFileDto(row);
  }

  async delete(c: FileCaller, id: string): Promise<void> {
    const cur = await this.resolve(c, id, 'delete');
    const gone = await this.repo.delete(cur.thingUuid);
    if (!gone) throw notFound('File');
    await this.blobs.remove(gone.contentId);
  }

  /** Metadata and an open handle on the blob it names (consistent even during a replacement). */
  async open(c: FileCaller, id: string): Promise<OpenFile> {
    for (let i = 0; i < OPEN_ATTEMPTS; i++) {
      const meta = await this.resolve(c, id, 'read');
      const handle = await this.blobs.open(meta.contentId);
      if (handle) return { meta, handle };
    }
    throw new AppError(503, 'The file is being changed too often to read; try again');
  }
}
