import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { fillTemplate } from '../query';
import { RANK, SharingCaller, sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { readContents, readValues } from './template-contents';
import { TemplateEntity } from './template.entity';
import { templatePolicy as policy } from './templates.access';
import {
  CreateTemplateDto,
  FilledTemplateDto,
  TemplateDetailsDto,
  TemplateDetailsUpdateDto,
  TemplateDto,
  toTemplateDetailsDto,
  toTemplateDto,
  UpdateTemplateDto,
} from './templates.dto';
import { TemplatePatch, TemplatesRepository } from './templates.repository';

/** GUID in a body: absent, null or "" means none; anything else must be a UUID. */
function bodyGuid(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isUuid(value)) throw refusal('INVALID_GUID');
  return value.toLowerCase();
}

/** Search templates (the product's /api/templates) under the shared-object rules (templates.access.ts). */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly repo: TemplatesRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid), firstHolder: (guid: string) => this.repo.firstHolderOfGuid(guid) };

  private dto(c: SharingCaller | AuthContext, t: TemplateEntity): TemplateDto {
    return toTemplateDto(t, policy.permissions(c, t));
  }

  /**
   * `{id}` is a ThingUUID or a GUID. A ThingUUID wins. For a GUID, the template the caller reads
   * is chosen as the product does: their own, then one shared with a group they are in, then a
   * global one (the oldest among equals); an admin reaching only other users' private templates by
   * that GUID gets the one if it is alone, else 400 (use the ThingUUID). None readable: 404.
   */
  private async resolve(auth: AuthContext, id: string): Promise<TemplateEntity | null> {
    const direct = await this.repo.findByThingUuid(id);
    if (direct) return direct;
    const all = await this.repo.findByGuid(id);
    const readable = all.filter((t) => policy.canRead(auth, t)).sort((a, b) => policy.rank(auth, a) - policy.rank(auth, b));
    if (readable.length > 1 && policy.rank(auth, readable[1]) === RANK.admin) {
      throw refusal('TEMPLATE_GUID_AMBIGUOUS');
    }
    return readable[0] ?? all[0] ?? null;
  }

  /** Own, shared with the caller's groups, and global templates; with `?admin=true` (an admin session) every template. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<TemplateDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((t) => policy.listed(c, t)).map((t) => this.dto(c, t));
  }

  async get(auth: AuthContext, id: string): Promise<TemplateDto> {
    return this.dto(auth, policy.require(auth, await this.resolve(auth, id), 'read'));
  }

  async details(auth: AuthContext, id: string): Promise<TemplateDetailsDto> {
    const t = policy.require(auth, await this.resolve(auth, id), 'read');
    return toTemplateDetailsDto(t, policy.permissions(auth, t));
  }

  /** The new template (the product's client reads the WireUserTemplate back). */
  async create(auth: AuthContext, dto: CreateTemplateDto): Promise<TemplateDto> {
    const contents = readContents(dto.Contents);
    const guid = bodyGuid(dto.GUID) ?? randomUUID();
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid }, this.lookups);
    const thingUuid = randomUUID();
    await this.repo.insert({
      thingUuid,
      guid,
      uid,
      gids: gids ?? [],
      global,
      labels: dto.Labels ?? [],
      name: dto.Name ?? '',
      description: dto.Description ?? '',
      query: contents.query,
      variables: contents.variables,
    });
    return this.dto(auth, (await this.repo.findByThingUuid(thingUuid))!);
  }

  /** Absent or null fields keep their value; the updated template. */
  async update(auth: AuthContext, id: string, dto: UpdateTemplateDto): Promise<TemplateDto> {
    const t = policy.require(auth, await this.resolve(auth, id), 'change');
    const contents = dto.Contents == null ? undefined : readContents(dto.Contents);
    const { gids, ...sharing } = await this.sharing.update(policy, auth, t, { uid: dto.UID, gids: dto.GIDs, global: dto.Global, guid: bodyGuid(dto.GUID) }, this.lookups);
    const patch: TemplatePatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (dto.Name != null) patch.name = dto.Name;
    if (dto.Description !== undefined) patch.description = dto.Description ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (contents) Object.assign(patch, contents);
    return this.save(auth, t, patch);
  }

  /** PUT .../details: GIDs, and (admins) UID and Global; the rest of the body is ignored, as the product does. */
  async updateDetails(auth: AuthContext, id: string, dto: TemplateDetailsUpdateDto): Promise<TemplateDetailsDto> {
    const t = policy.require(auth, await this.resolve(auth, id), 'change');
    const { gids, ...sharing } = await this.sharing.update(policy, auth, t, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const saved = await this.save(auth, t, { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) });
    const { Contents: _contents, ...details } = saved;
    return details;
  }

  private async save(auth: AuthContext, t: TemplateEntity, patch: TemplatePatch): Promise<TemplateDto> {
    await this.repo.update(t.thingUuid, patch);
    const updated = await this.repo.findByThingUuid(t.thingUuid);
    if (!updated) throw refusal('TEMPLATE_NOT_FOUND');
    return this.dto(auth, updated);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const t = policy.require(auth, await this.resolve(auth, id), 'delete');
    await this.repo.delete(t.thingUuid);
  }

  /**
   * The template's query with the variables filled in (src/query/templates.ts, the one place that
   * does it): what the console launches, as any query the caller typed, so it runs with the
   * caller's rights and limits only.
   */
  async fill(auth: AuthContext, id: string, rawValues: unknown): Promise<FilledTemplateDto> {
    const t = policy.require(auth, await this.resolve(auth, id), 'read');
    return { Query: fillTemplate(t.query, t.variables, readValues(rawValues)) };
  }
}
