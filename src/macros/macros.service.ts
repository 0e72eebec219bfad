import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { MACRO_NAME } from '../query';
import { RANK, sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { MacroEntity } from './macro.entity';
import { macroPolicy as policy } from './macros.access';
import { CreateMacroDto, MacroDto, toMacroDto, UpdateMacroDto } from './macros.dto';
import { MacroPatch, MacrosRepository } from './macros.repository';

/** A stored name: as the product's CheckMacroName wants it (no `$`, no lower case); anything else is 400. */
function macroName(name: string): string {
  if (!MACRO_NAME.test(name)) throw refusal('MACRO_NAME_INVALID', name.slice(0, 140));
  return name;
}

/** Search macros (the product's /api/macros) under the shared-object rules (macros.access.ts). */
@Injectable()
export class MacrosService {
  constructor(
    private readonly repo: MacrosRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid) };

  private dto(auth: AuthContext, m: MacroEntity): MacroDto {
    return toMacroDto(m, policy.permissions(auth, m));
  }

  /** Own, shared with the caller's groups, and global macros; with `?admin=true` (an admin session) every macro. */
  async list(auth: AuthContext, adminFlag?: boolean): Promise<MacroDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((m) => policy.listed(c, m)).map((m) => this.dto(auth, m));
  }

  /** GET /api/macros/all: every macro (the route is for admins only). */
  async listAll(auth: AuthContext): Promise<MacroDto[]> {
    return (await this.repo.listAll()).map((m) => this.dto(auth, m));
  }

  /** The macros a user owns: admins, or the user themself. */
  async listOfUser(auth: AuthContext, uid: number): Promise<MacroDto[]> {
    if (!auth.isAdmin && auth.uid !== uid) throw refusal('MACRO_LIST_NOT_YOURS');
    return (await this.repo.listOwnedBy(uid)).map((m) => this.dto(auth, m));
  }

  /** The macros shared with a group: admins, or its members. */
  async listOfGroup(auth: AuthContext, gid: number): Promise<MacroDto[]> {
    if (!auth.isAdmin && !auth.gids.includes(gid)) throw refusal('MACRO_LIST_NOT_YOURS');
    return (await this.repo.listSharedWith(gid)).map((m) => this.dto(auth, m));
  }

  async get(auth: AuthContext, id: number): Promise<MacroDto> {
    return this.dto(auth, policy.require(auth, await this.repo.findById(String(id)), 'read'));
  }

  /** The new macro's ID (the product answers the bare number). */
  async create(auth: AuthContext, dto: CreateMacroDto): Promise<number> {
    const name = macroName(dto.Name);
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const id = await this.repo.insert({ uid, gids: gids ?? [], global, labels: dto.Labels ?? [], name, description: dto.Description ?? '', expansion: dto.Expansion });
    if (id === undefined) throw refusal('MACRO_NAME_TAKEN', name);
    return Number(id);
  }

  /** Absent or null fields keep their value; the updated macro. */
  async update(auth: AuthContext, id: number, dto: UpdateMacroDto): Promise<MacroDto> {
    const m = policy.require(auth, await this.repo.findById(String(id)), 'change');
    // Macros have no GUID: nothing to reuse, so the lookups name no first holder.
    const { gids, ...sharing } = await this.sharing.update(policy, auth, m, { uid: dto.UID, gids: dto.GIDs, global: dto.Global }, this.lookups);
    const patch: MacroPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    if (dto.Name != null) patch.name = macroName(dto.Name);
    if (dto.Expansion != null) patch.expansion = dto.Expansion;
    if (dto.Description !== undefined) patch.description = dto.Description ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (!(await this.repo.update(m.id, patch))) throw refusal('MACRO_NAME_TAKEN', patch.name ?? m.name);
    const updated = await this.repo.findById(m.id);
    if (!updated) throw refusal('MACRO_NOT_FOUND');
    return this.dto(auth, updated);
  }

  async delete(auth: AuthContext, id: number): Promise<void> {
    const m = policy.require(auth, await this.repo.findById(String(id)), 'delete');
    await this.repo.delete(m.id);
  }

  /**
   * The expansion of each name for a search run by the caller: their own macro, else one shared
   * with a group they are in, else a global one; the oldest among equals. An admin's rights do
   * not reach other users' private macros here (a search is not admin mode). Used by the engine
   * (QUERY_MACROS, src/search/query-macros.ts).
   */
  async resolve(auth: AuthContext, names: string[]): Promise<Map<string, string>> {
    if (auth.token && !auth.token.capabilities.has('MacroRead')) throw refusal('API_TOKEN_LACKS_CAPABILITY', 'MacroRead');
    const rows = await this.repo.listReachable(auth.uid, auth.gids, names);
    const best = new Map<string, { rank: number; text: string }>();
    for (const m of rows) {
      const rank = policy.rank(auth, m);
      if (rank >= RANK.admin) continue;
      const had = best.get(m.name);
      if (!had || rank < had.rank) best.set(m.name, { rank, text: m.expansion });
    }
    return new Map([...best].map(([n, v]) => [n, v.text]));
  }
}
