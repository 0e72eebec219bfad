import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { GroupEntity, GroupMemberEntity } from '../groups/group.entity';
import { UserEntity } from './user.entity';

export type NewUser = Pick<UserEntity, 'username' | 'name' | 'email' | 'passwordHash' | 'admin'> & { uid?: number };

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.ds.manager).getRepository(UserEntity);
  }

  transaction<T>(fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(fn);
  }

  findByUid(uid: number, tx?: EntityManager): Promise<UserEntity | null> {
    return this.repo(tx).findOneBy({ uid });
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.repo().createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getOne();
  }

  listAll(): Promise<UserEntity[]> {
    return this.repo().find({ order: { uid: 'ASC' } });
  }

  /** Users that are members of a group. */
  listMembers(gid: number): Promise<UserEntity[]> {
    return this.repo().createQueryBuilder('u').innerJoin('group_member', 'm', 'm.uid = u.uid AND m.gid = :gid', { gid }).orderBy('u.uid', 'ASC').getMany();
  }

  async insert(row: NewUser, tx?: EntityManager): Promise<number> {
    const res = await this.repo(tx).insert(row);
    return (res.identifiers[0] as { uid: number }).uid;
  }

  /** Creates the account with UID 1 unless one exists; true when it was created. */
  async insertPrimaryAdmin(row: Omit<NewUser, 'uid'>): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const res: unknown[] = await tx.query(
        `INSERT INTO app_user (uid, username, name, email, password_hash, admin)
         VALUES (1, $1, $2, $3, $4, true) ON CONFLICT DO NOTHING RETURNING uid`,
        [row.username, row.name, row.email, row.passwordHash],
      );
      await tx.query(`SELECT setval(pg_get_serial_sequence('app_user', 'uid'), GREATEST((SELECT max(uid) FROM app_user), 1))`);
      return res.length > 0;
    });
  }

  async update(uid: number, patch: Partial<Omit<UserEntity, 'uid'>>, tx?: EntityManager): Promise<void> {
    await this.repo(tx).update({ uid }, { ...patch, updatedAt: new Date() });
  }

  async markActive(uid: number): Promise<void> {
    await this.repo().update({ uid }, { lastActive: new Date() });
  }

  async delete(uid: number): Promise<void> {
    await this.repo().delete({ uid });
  }

  /** Groups of each listed user, keyed by UID. */
  async groupsOf(uids: number[]): Promise<Map<number, GroupEntity[]>> {
    const out = new Map<number, GroupEntity[]>(uids.map((u) => [u, []]));
    if (!uids.length) return out;
    const rows: Array<{ uid: number; gid: number; name: string; description: string }> = await this.ds.query(
      `SELECT m.uid, g.gid, g.name, g.description FROM group_member m JOIN app_group g ON g.gid = m.gid
        WHERE m.uid = ANY($1) ORDER BY g.gid`,
      [uids],
    );
    for (const r of rows) out.get(r.uid)?.push(Object.assign(new GroupEntity(), { gid: r.gid, name: r.name, description: r.description }));
    return out;
  }

  // Memberships

  async addMembers(uid: number, gids: number[]): Promise<void> {
    if (!gids.length) return;
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(GroupMemberEntity)
      .values(gids.map((gid) => ({ gid, uid })))
      .orIgnore()
      .execute();
  }

  async removeMember(uid: number, gid: number): Promise<boolean> {
    const res = await this.ds.getRepository(GroupMemberEntity).delete({ uid, gid });
    return (res.affected ?? 0) > 0;
  }

  async isMember(uid: number, gid: number): Promise<boolean> {
    return this.ds.getRepository(GroupMemberEntity).existsBy({ uid, gid });
  }
}
