import { Injectable } from '@nestjs/common';
import { PasswordGuesses } from './password-guesses';
import { PasswordHasher } from './password-hasher';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { GroupDetailsDto, toGroupDetails } from '../groups/groups.dto';
import { GroupsService } from '../groups/groups.service';
import { SessionListDto } from '../sessions/sessions.dto';
import { SessionsService } from '../sessions/sessions.service';
import { UserEntity } from './user.entity';
import { AddGroupsDto, AdminStatusDto, ChangePasswordDto, CreateUserDto, SignInState, toUserDetails, UpdateUserDto, UserDetailsDto } from './users.dto';
import { UsersRepository } from './users.repository';

/** The default account: it cannot be renamed, deleted or demoted (contract: Users rule 4). */
export const PRIMARY_ADMIN_UID = 1;

/**
 * User accounts. Non-admins act only on themselves; admins on anyone (contract: Users and
 * groups rules 1-7). Lock and password changes end sessions in the same transaction.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly groupsService: GroupsService,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordHasher,
    private readonly guesses: PasswordGuesses,
  ) {}

  /** The target account, after checking that the caller may act on it. */
  private async target(auth: AuthContext, uid: number): Promise<UserEntity> {
    if (!auth.isAdmin && auth.uid !== uid) throw refusal('OWN_ACCOUNT_ONLY');
    const user = await this.users.findByUid(uid);
    if (!user) throw refusal('USER_NOT_FOUND');
    return user;
  }

  /** Failed sign-ins are shown to administrators only. */
  private signInState(auth: AuthContext, u: UserEntity): SignInState | undefined {
    return auth.isAdmin ? this.guesses.accountState(u.username) : undefined;
  }

  private async details(auth: AuthContext, u: UserEntity): Promise<UserDetailsDto> {
    const groups = await this.users.groupsOf([u.uid]);
    return toUserDetails(u, groups.get(u.uid) ?? [], this.signInState(auth, u));
  }

  async whoami(auth: AuthContext): Promise<UserDetailsDto> {
    const user = await this.users.findByUid(auth.uid);
    if (!user) throw refusal('USER_NOT_FOUND');
    return this.details(auth, user);
  }

  async list(auth: AuthContext): Promise<UserDetailsDto[]> {
    const all = await this.users.listAll();
    const groups = await this.users.groupsOf(all.map((u) => u.uid));
    return all.map((u) => toUserDetails(u, groups.get(u.uid) ?? [], this.signInState(auth, u)));
  }

  /** `GET /api/groups/{id}/members`: admins, or members of that group. */
  async membersOf(auth: AuthContext, gid: number): Promise<UserDetailsDto[]> {
    await this.groupsService.requireExists(gid);
    if (!auth.isAdmin && !auth.gids.includes(gid)) throw refusal('GROUP_MEMBERS_FORBIDDEN');
    const members = await this.users.listMembers(gid);
    const groups = await this.users.groupsOf(members.map((u) => u.uid));
    return members.map((u) => toUserDetails(u, groups.get(u.uid) ?? [], this.signInState(auth, u)));
  }

  async get(auth: AuthContext, uid: number): Promise<UserDetailsDto> {
    return this.details(auth, await this.target(auth, uid));
  }

  /** `GET /api/users/{id}/sessions`: the account's sessions that have not expired. */
  async sessionsOf(auth: AuthContext, uid: number): Promise<SessionListDto> {
    if (!auth.isAdmin && auth.uid !== uid) throw refusal('OWN_SESSIONS_ONLY');
    const user = await this.users.findByUid(uid);
    if (!user) throw refusal('USER_NOT_FOUND');
    return { UID: uid, User: user.username, Sessions: await this.sessions.listActive(uid) };
  }

  /** Does this UID exist? (Other features answer 404 or 400 for unknown users.) */
  async exists(uid: number): Promise<boolean> {
    return (await this.users.findByUid(uid)) !== null;
  }

  async create(dto: CreateUserDto): Promise<number> {
    if (await this.users.findByUsername(dto.User)) throw refusal('USER_ALREADY_EXISTS', dto.User);
    const passwordHash = await this.passwords.hash(dto.Pass);
    return this.users.insert({ username: dto.User, name: dto.Name, email: dto.Email, admin: dto.Admin, passwordHash });
  }

  async update(auth: AuthContext, uid: number, dto: UpdateUserDto): Promise<UserDetailsDto> {
    const user = await this.target(auth, uid);
    const patch: Partial<UserEntity> = {};
    if (dto.User !== undefined && dto.User !== user.username) {
      if (uid === PRIMARY_ADMIN_UID) throw refusal('PRIMARY_ADMIN_RENAME');
      const other = await this.users.findByUsername(dto.User);
      if (other && other.uid !== uid) throw refusal('USER_ALREADY_EXISTS', dto.User);
      patch.username = dto.User;
    }
    if (dto.Name !== undefined) patch.name = dto.Name;
    if (dto.Email !== undefined) patch.email = dto.Email;
    if (dto.Admin !== undefined && dto.Admin !== user.admin) {
      if (!auth.isAdmin) throw refusal('ADMIN_STATUS_ADMIN_ONLY');
      if (!dto.Admin && uid === PRIMARY_ADMIN_UID) throw refusal('PRIMARY_ADMIN_DEMOTE');
      patch.admin = dto.Admin;
    }
    if (Object.keys(patch).length) await this.users.update(uid, patch);
    return this.get(auth, uid);
  }

  async changePassword(auth: AuthContext, uid: number, dto: ChangePasswordDto): Promise<void> {
    const user = await this.target(auth, uid);
    const adminOnOther = auth.isAdmin && auth.uid !== uid;
    if (!adminOnOther) {
      if (dto.OrigPass === undefined) throw refusal('ORIG_PASS_REQUIRED');
      // A stolen session must not be a way around the login's guess limit.
      // Per session: a thief's guesses cannot lock the owner out of changing the password.
      const key = { passwordChangeOf: uid, session: auth.sessionId ?? auth.token?.id ?? '' };
      this.guesses.assertAllowed('wrong passwords', key);
      if (!(await this.passwords.compare(dto.OrigPass, user.passwordHash))) {
        this.guesses.failed(key);
        throw refusal('ORIG_PASS_WRONG');
      }
      this.guesses.succeeded(key);
    }
    const passwordHash = await this.passwords.hash(dto.NewPass);
    const except = auth.uid === uid ? auth.sessionId : undefined;
    await this.users.transaction(async (tx) => {
      await this.users.update(uid, { passwordHash }, tx);
      // Other sessions of the account end, with the tokens sessions minted; the caller's own session stays.
      await this.sessions.endAll(uid, { tx, except, revokeMintedTokens: true });
    });
    this.sessions.announceEnded(uid, except);
  }

  async delete(auth: AuthContext, uid: number): Promise<void> {
    if (uid === auth.uid) throw refusal('DELETE_OWN_ACCOUNT');
    if (uid === PRIMARY_ADMIN_UID) throw refusal('PRIMARY_ADMIN_DELETE');
    await this.target(auth, uid);
    await this.sessions.endAll(uid); // open websockets close at once
    await this.users.delete(uid);
  }

  /** Lock ends every session at once; repeating it is harmless (contract: User account states). */
  async setLocked(auth: AuthContext, uid: number, locked: boolean): Promise<void> {
    if (locked && uid === auth.uid) throw refusal('LOCK_OWN_ACCOUNT');
    const user = await this.target(auth, uid);
    await this.users.transaction(async (tx) => {
      await this.users.update(uid, { locked }, tx);
      if (locked) await this.sessions.endAll(uid, { tx });
    });
    if (locked) this.sessions.announceEnded(uid);
    // Unlocked means logins are allowed (contract): also after too many failed sign-ins.
    else this.guesses.clearAccount(user.username);
  }

  async adminStatus(auth: AuthContext, uid: number): Promise<AdminStatusDto> {
    const user = await this.target(auth, uid);
    return { UID: uid, Admin: user.admin };
  }

  async setAdmin(auth: AuthContext, uid: number, admin: boolean): Promise<AdminStatusDto> {
    if (!admin && uid === PRIMARY_ADMIN_UID) throw refusal('PRIMARY_ADMIN_DEMOTE');
    await this.target(auth, uid);
    await this.users.update(uid, { admin });
    return { UID: uid, Admin: admin };
  }

  async searchGroup(auth: AuthContext, uid: number): Promise<number> {
    return (await this.target(auth, uid)).defaultGid ?? 0;
  }

  /** GID 0 clears it; otherwise the account must belong to the group. */
  async setSearchGroup(auth: AuthContext, uid: number, gid: number): Promise<void> {
    await this.target(auth, uid);
    if (gid !== 0) {
      await this.groupsService.requireExists(gid);
      if (!(await this.users.isMember(uid, gid))) throw refusal('NOT_A_GROUP_MEMBER');
    }
    await this.users.update(uid, { defaultGid: gid || null });
  }

  async groups(auth: AuthContext, uid: number): Promise<GroupDetailsDto[]> {
    await this.target(auth, uid);
    return ((await this.users.groupsOf([uid])).get(uid) ?? []).map(toGroupDetails);
  }

  async addGroups(auth: AuthContext, uid: number, dto: AddGroupsDto): Promise<GroupDetailsDto[]> {
    await this.target(auth, uid);
    const gids = [...new Set(dto.GIDs)];
    const found = await this.groupsService.existing(gids);
    const missing = gids.filter((g) => !found.includes(g));
    if (missing.length) throw refusal('GROUPS_NOT_FOUND', missing.join(', '));
    await this.users.addMembers(uid, gids);
    return this.groups(auth, uid);
  }

  async removeGroup(auth: AuthContext, uid: number, gid: number): Promise<void> {
    await this.target(auth, uid);
    if (!(await this.users.removeMember(uid, gid))) throw refusal('MEMBERSHIP_NOT_FOUND');
    const user = await this.users.findByUid(uid);
    if (user?.defaultGid === gid) await this.users.update(uid, { defaultGid: null });
  }
}
