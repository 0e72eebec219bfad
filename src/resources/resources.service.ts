import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { AuthContext } from '../identity/auth.types';
import { AccessAction, sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { refusal } from '../common/errors/app-error';
import { BlobStore, readHead, StoredUpload } from '../storage/blob-store';
import { OCTET_STREAM } from '../storage/content-sniff';
import { ResourceEntity } from './resource.entity';
import { resourcePolicy as policy } from './resources.access';
import { CloneResourceDto, ContentTypeDto, CreateResourceDto, ResourceMetadataDto, toResourceDto, UpdateResourceDto } from './resources.dto';
import { ResourcesRepository, ResourceMetaPatch } from './resources.repository';

export const RESOURCE_BLOBS = 'RESOURCE_BLOBS';

/** Contract: Limits 1. */
export const CONTENTTYPE_DEFAULT_BYTES = 512;
export const CONTENTTYPE_MIN_BYTES = 128;
/** Upper bound of `bytes` (a base64 body in JSON must stay small). */
export const CONTENTTYPE_MAX_BYTES = 1024 * 1024;

/** `bytes` of GET .../contenttype -> how many leading bytes to return, for contents of `size` bytes. */
export function contentTypeByteCount(bytes: number | undefined, size: number): number {
  const wanted = bytes === undefined || bytes < CONTENTTYPE_MIN_BYTES ? CONTENTTYPE_DEFAULT_BYTES : bytes;
  return Math.min(wanted, size, CONTENTTYPE_MAX_BYTES);
}

export interface OpenContents {
  meta: ResourceEntity;
  /** Null for a resource without contents (an empty body). */
  handle: FileHandle | null;
}

const OPEN_ATTEMPTS = 5;

/**
 * Resources: metadata in PostgreSQL, contents as immutable blobs (see BlobStore). Every method
 * checks access through the resources' sharing policy (resources.access.ts).
 */
@Injectable()
export class ResourcesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ResourcesService');

  constructor(
    private readonly repo: ResourcesRepository,
    private readonly sharing: GroupSharing,
    @Inject(RESOURCE_BLOBS) private readonly blobs: BlobStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const removed = await this.blobs.recover(() => this.repo.contentIds());
    if (removed) this.logger.log(`removed ${removed} unreferenced resource blobs`);
  }

  async list(auth: AuthContext, adminFlag?: boolean): Promise<ResourceMetadataDto[]> {
    const rows = sharingCaller(auth, adminFlag).adminMode ? await this.repo.listAll() : await this.repo.listVisible(auth.uid, auth.gids);
    return rows.map(toResourceDto);
  }

  async create(auth: AuthContext, dto: CreateResourceDto): Promise<ResourceMetadataDto> {
    const { uid, gids, global } = await this.sharing.create(policy, auth, { gids: dto.GroupACL, global: dto.Global });
    const row = await this.repo.insert({
      guid: randomUUID(),
      uid,
      gids: gids ?? [],
      global,
      name: dto.ResourceName,
      description: dto.Description ?? '',
    });
    return toResourceDto(row);
  }

  private async find(auth: AuthContext, guid: string, action: AccessAction): Promise<ResourceEntity> {
    return policy.require(auth, await this.repo.findByGuid(guid), action);
  }

  async get(auth: AuthContext, guid: string): Promise<ResourceMetadataDto> {
    return toResourceDto(await this.find(auth, guid, 'read'));
  }

  /** Rule 1: users change GroupACL, ResourceName, Description; admins also Global; anything else is ignored. */
  async update(auth: AuthContext, guid: string, dto: UpdateResourceDto): Promise<ResourceMetadataDto> {
    const cur = await this.find(auth, guid, 'change');
    const { gids, global } = await this.sharing.update(policy, auth, cur, { gids: dto.GroupACL, global: dto.Global });
    const patch: ResourceMetaPatch = { ...(gids !== undefined && { gids: gids ?? [] }), ...(global !== undefined && { global }) };
    if (dto.ResourceName !== undefined) patch.name = dto.ResourceName;
    if (dto.Description !== undefined) patch.description = dto.Description;
    if (!Object.keys(patch).length) return toResourceDto(cur);
    const row = await this.repo.updateMeta(guid, patch);
    if (!row) throw refusal('RESOURCE_NOT_FOUND');
    return toResourceDto(row);
  }

  /** New contents: commit the uploaded blob, switch the row to it atomically, then drop the old blob. */
  async replaceContents(auth: AuthContext, guid: string, upload: StoredUpload): Promise<ResourceMetadataDto> {
    await this.find(auth, guid, 'change');
    const contentId = await this.blobs.commit(upload);
    let result: Awaited<ReturnType<ResourcesRepository['replaceContents']>>;
    try {
      result = await this.repo.replaceContents(guid, { contentId, size: upload.size, hash: upload.sha256, contentType: upload.contentType });
    } catch (e) {
      await this.blobs.remove(contentId);
      throw e;
    }
    if (!result) {
      await this.blobs.remove(contentId);
      throw refusal('RESOURCE_NOT_FOUND');
    }
    await this.blobs.remove(result.previous);
    return toResourceDto(result.row);
  }

  /** The metadata and an open handle on the blob it names (consistent even during a replacement). */
  async openContents(auth: AuthContext, guid: string): Promise<OpenContents> {
    for (let i = 0; i < OPEN_ATTEMPTS; i++) {
      const meta = await this.find(auth, guid, 'read');
      if (!meta.contentId) return { meta, handle: null };
      const handle = await this.blobs.open(meta.contentId);
      if (handle) return { meta, handle };
      // Replaced or deleted between reading the row and opening the blob: read the row again.
    }
    throw refusal('RESOURCE_BUSY', 'read');
  }

  async contentType(auth: AuthContext, guid: string, bytes: number | undefined): Promise<ContentTypeDto> {
    const { meta, handle } = await this.openContents(auth, guid);
    if (!handle) return { ContentType: meta.contentType || OCTET_STREAM, Body: '' };
    try {
      const head = await readHead(handle, contentTypeByteCount(bytes, meta.size));
      return { ContentType: meta.contentType, Body: head.toString('base64') };
    } finally {
      await handle.close();
    }
  }

  async delete(auth: AuthContext, guid: string): Promise<void> {
    await this.find(auth, guid, 'delete');
    const gone = await this.repo.delete(guid);
    if (!gone) throw refusal('RESOURCE_NOT_FOUND');
    await this.blobs.remove(gone.contentId);
  }

  /** A private copy owned by the caller (contents included), named `Name` or after the source. */
  async clone(auth: AuthContext, guid: string, dto: CloneResourceDto): Promise<ResourceMetadataDto> {
    for (let i = 0; i < OPEN_ATTEMPTS; i++) {
      const src = await this.find(auth, guid, 'read');
      let contentId: string | null = null;
      if (src.contentId) {
        contentId = await this.blobs.copy(src.contentId);
        if (!contentId) continue; // replaced meanwhile: read the row again
      }
      try {
        const row = await this.repo.insert({
          guid: randomUUID(),
          uid: auth.uid,
          gids: [],
          global: false,
          name: dto.Name ?? src.name,
          description: src.description,
          labels: src.labels,
          domain: src.domain,
          contentId,
          size: src.size,
          hash: src.hash,
          contentType: src.contentType,
        });
        return toResourceDto(row);
      } catch (e) {
        await this.blobs.remove(contentId);
        throw e;
      }
    }
    throw refusal('RESOURCE_BUSY', 'clone');
  }
}
