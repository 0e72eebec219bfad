import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { tagNameProblem } from '../ingest/ingest.rules';
import { AX_ENGINES, AxDefinition, checkAxDefinition, evToString, makeRuntime, ModuleArgError, runAxDefinition } from '../query';
import { RANK, sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { AutoextractorEntity } from './autoextractor.entity';
import { autoextractorPolicy as policy } from './autoextractors.access';
import {
  AutoextractorDto,
  AxTestResultDto,
  CreateAutoextractorDto,
  MAX_AX_ARGS,
  MAX_AX_DESC,
  MAX_AX_MODULE,
  MAX_AX_NAME,
  MAX_AX_PARAMS,
  MAX_AX_SAMPLE_LINES,
  MAX_AX_TAGS,
  TestAutoextractorDto,
  toAutoextractorDto,
  UpdateAutoextractorDto,
} from './autoextractors.dto';
import { AutoextractorPatch, AutoextractorsRepository, BatchWrite, NewAutoextractor, WriteConflict } from './autoextractors.repository';
import { AxFileEntry, AxFileError, encodeAxFile, parseAxFile } from './ax-toml';

/** Definitions one owner may have. */
export const AX_MAX_PER_OWNER = 1000;
/** An uploaded file: at most this many bytes and definitions. */
export const AX_UPLOAD_MAX_BYTES = 1 << 20;
export const AX_UPLOAD_MAX_ENTRIES = 500;

/** The product's newlines-to-spaces sanitising of the text fields (AXDefinition.Validate). */
const oneLine = (v: string) => v.replace(/[\r\n]/g, ' ');

/** Tag and Tags as one list (duplicates once); 400 with the tag rule's words for a bad one. */
function tagsOf(tag: string | null | undefined, tags: string[] | null | undefined): string[] {
  const all = [...(tag ? [tag] : []), ...(tags ?? [])].map(oneLine);
  const out = [...new Set(all)];
  if (!out.length) throw refusal('AUTOEXTRACTOR_INVALID', 'extraction tag assignment missing');
  if (out.length > MAX_AX_TAGS) throw refusal('AUTOEXTRACTOR_INVALID', `at most ${MAX_AX_TAGS} tags`);
  for (const t of out) {
    const p = tagNameProblem(t);
    if (p) throw refusal('AUTOEXTRACTOR_INVALID', `Tag ${JSON.stringify(t.slice(0, 70))} ${p}`);
  }
  return out;
}

/** The definition as `ax` compiles it: 400 with the engine's words when it refuses it; the fields it extracts. */
function checkDefinition(def: AxDefinition, where = ''): string[] {
  try {
    return checkAxDefinition(def);
  } catch (err) {
    if (err instanceof ModuleArgError) throw refusal('AUTOEXTRACTOR_INVALID', `${where}${def.module}: ${err.message}`);
    throw err;
  }
}

function definitionOf(a: Pick<NewAutoextractor, 'tags' | 'name' | 'module' | 'params' | 'args'>): AxDefinition {
  return { tags: a.tags, name: a.name, module: a.module, params: a.params, args: a.args };
}

function conflictRefusal(c: WriteConflict) {
  return 'tagTaken' in c ? refusal('AUTOEXTRACTOR_TAG_TAKEN', c.tagTaken) : refusal('AUTOEXTRACTOR_TOO_MANY', AX_MAX_PER_OWNER);
}

/** A file entry's text fields, bounded as a JSON body's are. */
function checkFileEntry(e: AxFileEntry, where: string): void {
  const limits: Array<[keyof AxFileEntry, number]> = [
    ['name', MAX_AX_NAME],
    ['desc', MAX_AX_DESC],
    ['module', MAX_AX_MODULE],
    ['params', MAX_AX_PARAMS],
    ['args', MAX_AX_ARGS],
  ];
  for (const [k, max] of limits) if ((e[k] as string).length > max) throw refusal('AUTOEXTRACTOR_FILE_INVALID', `${where}${k} is longer than ${max} characters`);
}

/**
 * Autoextractors (the product's /api/autoextractors) under the shared-object rules
 * (autoextractors.access.ts), with the product's rule of one definition per tag per owner.
 */
@Injectable()
export class AutoextractorsService {
  constructor(
    private readonly repo: AutoextractorsRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid) };

  private dto(auth: AuthContext, a: AutoextractorEntity): AutoextractorDto {
    return toAutoextractorDto(a, policy.permissions(auth, a));
  }

  engines(): string[] {
    return [...AX_ENGINES];
  }

  /** Own, shared with the caller's groups, and global ones; with `?admin=true` (an admin session) all. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<AutoextractorDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((a) => policy.listed(c, a)).map((a) => this.dto(auth, a));
  }

  async get(auth: AuthContext, uuid: string): Promise<AutoextractorDto> {
    return this.dto(auth, policy.require(auth, await this.repo.findByUuid(uuid), 'read'));
  }

  /** The new definition's UUID (the product answers it as a JSON string). */
  async create(auth: AuthContext, dto: CreateAutoextractorDto): Promise<string> {
    const tags = tagsOf(dto.Tag, dto.Tags);
    const fields = { tags, name: oneLine(dto.Name ?? ''), module: oneLine(dto.Module), params: oneLine(dto.Params), args: oneLine(dto.Args ?? '') };
    checkDefinition(definitionOf(fields));
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const uuid = randomUUID();
    const row: NewAutoextractor = { uuid, uid, gids: gids ?? [], global, labels: dto.Labels ?? [], description: oneLine(dto.Desc ?? ''), ...fields };
    const conflict = await this.repo.write([{ insert: row }], AX_MAX_PER_OWNER);
    if (conflict) throw conflictRefusal(conflict);
    return uuid;
  }

  /** PUT /api/autoextractors: the body names the definition by UUID. */
  updateByBody(auth: AuthContext, dto: UpdateAutoextractorDto): Promise<AutoextractorDto> {
    if (!dto.UUID) throw refusal('AUTOEXTRACTOR_UUID_REQUIRED');
    if (!isUuid(dto.UUID)) throw refusal('INVALID_UUID', String(dto.UUID).slice(0, 40));
    return this.update(auth, dto.UUID.toLowerCase(), dto);
  }

  /** Absent or null fields keep their value; the updated definition. */
  async update(auth: AuthContext, uuid: string, dto: UpdateAutoextractorDto): Promise<AutoextractorDto> {
    const a = policy.require(auth, await this.repo.findByUuid(uuid), 'change');
    const { gids, ...sharing } = await this.sharing.update(policy, auth, a, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const patch: AutoextractorPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (dto.Tag != null || dto.Tags != null) patch.tags = tagsOf(dto.Tag, dto.Tags);
    if (dto.Name != null) patch.name = oneLine(dto.Name);
    if (dto.Desc != null) patch.description = oneLine(dto.Desc);
    if (dto.Module != null) patch.module = oneLine(dto.Module);
    if (dto.Params != null) patch.params = oneLine(dto.Params);
    if (dto.Args != null) patch.args = oneLine(dto.Args);
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    checkDefinition(definitionOf({ ...a, ...patch }));
    const conflict = await this.repo.write([{ update: a.uuid, patch }], AX_MAX_PER_OWNER);
    if (conflict) throw conflictRefusal(conflict);
    const updated = await this.repo.findByUuid(a.uuid);
    if (!updated) throw refusal('AUTOEXTRACTOR_NOT_FOUND');
    return this.dto(auth, updated);
  }

  async delete(auth: AuthContext, uuid: string): Promise<void> {
    const a = policy.require(auth, await this.repo.findByUuid(uuid), 'delete');
    await this.repo.delete(a.uuid);
  }

  /**
   * POST /api/autoextractors/test: 400 with the engine's words for a definition it refuses;
   * otherwise whether the caller already has one for these tags (TagExists, ignoring `UUID`, the
   * one an update replaces), the fields it extracts, and what it extracts from each sample line.
   */
  async test(auth: AuthContext, dto: TestAutoextractorDto): Promise<AxTestResultDto> {
    const tags = tagsOf(dto.Tag, dto.Tags);
    const def = definitionOf({ tags, name: dto.Name ?? '', module: dto.Module, params: oneLine(dto.Params), args: oneLine(dto.Args ?? '') });
    const fields = checkDefinition(def);
    const except = dto.UUID && isUuid(dto.UUID) ? dto.UUID.toLowerCase() : undefined;
    const TagExists = (await this.repo.ownedWithTags(auth.uid, tags, except)).length > 0;
    const lines = (dto.Sample ?? '')
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .slice(0, MAX_AX_SAMPLE_LINES);
    const rt = makeRuntime(undefined, new Date(), undefined);
    const runs = runAxDefinition(def, lines, rt);
    const Results = lines.map((Data, i) => {
      const got = runs[i];
      return { Data, Matched: got !== null, Fields: Object.fromEntries(Object.entries(got ?? {}).map(([k, v]) => [k, evToString(v)])) };
    });
    return { TagExists, Error: '', Fields: fields, Results };
  }

  /**
   * POST /api/autoextractors/upload: every definition of the file, checked first (nothing is
   * written when one is refused); one for a tag the caller already has replaces that one (as the
   * product says: re-uploading a file updates), others are created, owned by the caller.
   */
  async upload(auth: AuthContext, bytes: Buffer): Promise<AutoextractorDto[]> {
    if (!isUtf8(bytes)) throw refusal('AUTOEXTRACTOR_FILE_INVALID', 'it is not UTF-8 text');
    let entries: AxFileEntry[];
    try {
      entries = parseAxFile(bytes.toString('utf8'), AX_UPLOAD_MAX_ENTRIES);
    } catch (err) {
      if (err instanceof AxFileError) throw refusal('AUTOEXTRACTOR_FILE_INVALID', err.message);
      throw err;
    }
    if (!entries.length) throw refusal('AUTOEXTRACTOR_FILE_INVALID', 'it holds no [[extraction]]');
    const batch: BatchWrite[] = [];
    const replaced = new Set<string>();
    const uuids: string[] = [];
    for (const [i, e] of entries.entries()) {
      const where = `definition ${i + 1}${e.name ? ` (${e.name})` : ''}: `;
      checkFileEntry(e, where);
      let tags: string[];
      try {
        tags = tagsOf(null, e.tags);
      } catch (err) {
        throw refusal('AUTOEXTRACTOR_INVALID', `${where}${(err as Error).message}`);
      }
      const fields = { tags, name: oneLine(e.name), description: oneLine(e.desc), module: oneLine(e.module), params: oneLine(e.params), args: oneLine(e.args) };
      checkDefinition(definitionOf(fields), where);
      const own = await this.repo.ownedWithTags(auth.uid, tags);
      const target = own.length === 1 && !replaced.has(own[0].uuid) ? own[0] : undefined;
      if (target) {
        replaced.add(target.uuid);
        uuids.push(target.uuid);
        batch.push({ update: target.uuid, patch: fields });
      } else {
        const uuid = randomUUID();
        uuids.push(uuid);
        batch.push({ insert: { uuid, uid: auth.uid, gids: [], global: false, labels: [], ...fields } });
      }
    }
    const conflict = await this.repo.write(batch, AX_MAX_PER_OWNER);
    if (conflict) throw conflictRefusal(conflict);
    const rows = await this.repo.findByUuids(uuids);
    const byUuid = new Map(rows.map((r) => [r.uuid, r]));
    return uuids.flatMap((u) => (byUuid.has(u) ? [this.dto(auth, byUuid.get(u)!)] : []));
  }

  /** GET /api/autoextractors/download: the named definitions (every one the caller may read when none is named) as the product's file. */
  async download(auth: AuthContext, ids: string[]): Promise<string> {
    let rows: AutoextractorEntity[];
    if (!ids.length) rows = (await this.repo.listReachable(auth.uid, auth.gids)).filter((a) => policy.canRead(auth, a));
    else {
      for (const id of ids) if (!isUuid(id)) throw refusal('INVALID_UUID', String(id).slice(0, 40));
      const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
      const found = await this.repo.findByUuids(wanted);
      // In the order asked for; one the caller may not read is 404, as a missing one.
      rows = wanted.map((id) =>
        policy.require(
          auth,
          found.find((a) => a.uuid === id),
          'read',
        ),
      );
    }
    return encodeAxFile(rows.map((a) => ({ tags: a.tags, name: a.name, desc: a.description, module: a.module, params: a.params, args: a.args })));
  }

  /**
   * The definitions a search by the caller uses, one per tag: their own, else one shared with a
   * group they are in, else a global one; the oldest among equals. An admin's rights do not reach
   * other users' private definitions here (a search is not admin mode). Used by the engine
   * (QUERY_AUTOEXTRACTORS, src/search/query-autoextractors.ts).
   */
  async forSearch(auth: AuthContext): Promise<AxDefinition[]> {
    if (auth.token && !auth.token.capabilities.has('ExtractorRead')) throw refusal('API_TOKEN_LACKS_CAPABILITY', 'ExtractorRead');
    const rows = await this.repo.listReachable(auth.uid, auth.gids);
    const best = new Map<string, { rank: number; row: AutoextractorEntity }>();
    for (const a of rows) {
      const rank = policy.rank(auth, a);
      if (rank >= RANK.admin) continue;
      for (const t of a.tags) {
        const had = best.get(t);
        if (!had || rank < had.rank) best.set(t, { rank, row: a });
      }
    }
    const won = new Map<AutoextractorEntity, string[]>();
    for (const [tag, { row }] of best) won.set(row, [...(won.get(row) ?? []), tag]);
    return [...won].map(([a, tags]) => definitionOf({ ...a, tags }));
  }
}
