import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * The shared-object rule of reach, in SQL, for a query over a table of SharedObjectEntity rows
 * (alias `alias`): the caller's own, those shared with one of the caller's groups, and global
 * ones. Which of them the caller may then do what with is SharingPolicy's to say.
 */
export function whereReachable<T extends ObjectLiteral>(q: SelectQueryBuilder<T>, alias: string, uid: number, gids: readonly number[]): SelectQueryBuilder<T> {
  return q.andWhere(`(${alias}.uid = :reachUid OR ${alias}.gids && CAST(:reachGids AS integer[]) OR ${alias}.global)`, { reachUid: uid, reachGids: [...gids] });
}

/**
 * The contract's winner order among reachable objects of one GUID (after whereReachable): the
 * caller's own first, then one shared with their groups, then a global one.
 */
export function orderByReach<T extends ObjectLiteral>(q: SelectQueryBuilder<T>, alias: string): SelectQueryBuilder<T> {
  return q.orderBy(`CASE WHEN ${alias}.uid = :reachUid THEN 0 WHEN ${alias}.gids && CAST(:reachGids AS integer[]) THEN 1 ELSE 2 END`, 'ASC');
}
