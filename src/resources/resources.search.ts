/**
 * What searches do with resources, under the same rules as the resources API: read a lookup
 * table's contents with the caller's rights (`lookup -r <name or GUID>`), and write a table back
 * as the caller's own resource (`table -save <name>`).
 */
import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { AuthContext } from '../identity/auth.types';
import { Capability } from '../identity/capabilities';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlobStore, StoredUpload } from '../storage/blob-store';
import { detectContentType, SNIFF_BYTES, TextCheck } from '../storage/content-sniff';
import { ResourceEntity } from './resource.entity';
import { resourcePolicy } from './resources.access';
import { ResourceMetadataDto } from './resources.dto';
import { ResourcesRepository } from './resources.repository';
import { RESOURCE_BLOBS, ResourcesService } from './resources.service';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READ_ATTEMPTS = 5;

export interface SearchResourceContents {
  meta: ResourceEntity;
  bytes: Buffer;
}

@Injectable()
export class ResourceSearchAccess {
  constructor(
    private readonly repo: ResourcesRepository,
    private readonly resources: ResourcesService,
    @Inject(RESOURCE_BLOBS) private readonly blobs: BlobStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** API tokens reach resources from a search only with the capability the resources API wants. */
  requireCapability(auth: AuthContext, cap: Extract<Capability, 'ResourceRead' | 'ResourceWrite'>): void {
    if (auth.token && !auth.token.capabilities.has(cap)) throw refusal('API_TOKEN_LACKS_CAPABILITY', cap);
  }

  /**
   * The resource a search names by GUID or by name, when the caller may read it; null otherwise
   * (a missing resource and an unreadable one look the same). By name: the caller's own first,
   * then one shared with their groups or global, the most recently modified first.
   */
  async find(auth: AuthContext, ref: string): Promise<ResourceEntity | null> {
    if (UUID_RE.test(ref)) {
      const row = await this.repo.findByGuid(ref.toLowerCase());
      if (row && resourcePolicy.canRead(auth, row)) return row;
    }
    return this.repo.findVisibleByName(auth.uid, auth.gids, ref);
  }

  /** The contents of `row` (re-read when it changes meanwhile), null if it became unreadable. */
  async read(auth: AuthContext, row: ResourceEntity): Promise<SearchResourceContents | null> {
    let meta: ResourceEntity | null = row;
    for (let i = 0; i < READ_ATTEMPTS && meta; i++) {
      if (!meta.contentId) return { meta, bytes: Buffer.alloc(0) };
      const handle = await this.blobs.open(meta.contentId);
      if (handle) {
        try {
          return { meta, bytes: await handle.readFile() };
        } finally {
          await handle.close();
        }
      }
      // Replaced or deleted between reading the row and opening the blob: read the row again.
      const again = await this.repo.findByGuid(meta.guid);
      meta = again && resourcePolicy.canRead(auth, again) ? again : null;
    }
    if (!meta) return null;
    throw refusal('RESOURCE_BUSY_FOR_SEARCH');
  }

  /** `table -save <name>`: a new version of the caller's own resource of that name, or a new one. */
  async saveTable(auth: AuthContext, name: string, bytes: Buffer): Promise<ResourceMetadataDto> {
    const max = this.config.maxResourceSize;
    if (bytes.length > max) throw refusal('TABLE_SAVE_TOO_LARGE', name, bytes.length, max);
    const own = await this.repo.findOwnedByName(auth.uid, name);
    const guid = own?.guid ?? (await this.resources.create(auth, { ResourceName: name, Description: 'Saved by a search (table -save)' })).GUID;
    const upload = await this.stage(bytes, name);
    try {
      return await this.resources.replaceContents(auth, guid, upload);
    } finally {
      await this.blobs.discardTmp(upload);
    }
  }

  /** Writes bytes as an upload would arrive (a synced temp file next to the blobs). */
  private async stage(bytes: Buffer, name: string): Promise<StoredUpload> {
    const contentId = randomUUID();
    const tmpPath = path.join(this.blobs.root, `${contentId}.tmp`);
    await this.blobs.init();
    const fh = await fsp.open(tmpPath, 'wx', 0o600);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    const text = new TextCheck();
    text.push(bytes);
    const contentType = await detectContentType(bytes.subarray(0, SNIFF_BYTES), bytes.length, text.finish());
    return { contentId, tmpPath, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), contentType, originalName: name };
  }
}
