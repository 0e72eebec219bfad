import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthContext } from '../identity/auth.types';
import { ScheduledSearchEntity, ScheduledSearchRunEntity } from './scheduled-search.entity';
import { isUniqueViolation, PatchColumns, updateColumns } from '../database/partial-update';
import { whereReachable } from '../sharing/reachable';

export type NewScheduledSearch = Pick<
  ScheduledSearchEntity,
  | 'guid'
  | 'uid'
  | 'gids'
  | 'global'
  | 'labels'
  | 'name'
  | 'description'
  | 'schedule'
  | 'timezone'
  | 'disabled'
  | 'oneShotAt'
  | 'debugMode'
  | 'scheduledType'
  | 'searchString'
  | 'searchReference'
  | 'duration'
  | 'searchSinceLastRun'
  | 'backfillEnabled'
  | 'flow'
  | 'nextSlot'
>;
export type ScheduledSearchPatch = Partial<NewScheduledSearch & Pick<ScheduledSearchEntity, 'lastError'>>;

const COLUMNS: PatchColumns<ScheduledSearchPatch> = {
  guid: 'guid',
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  labels: 'labels',
  name: 'name',
  description: 'description',
  schedule: 'schedule',
  timezone: 'timezone',
  disabled: 'disabled',
  oneShotAt: 'one_shot_at',
  debugMode: 'debug_mode',
  scheduledType: 'scheduled_type',
  searchString: 'search_string',
  searchReference: 'search_reference',
  duration: 'duration',
  searchSinceLastRun: 'search_since_last_run',
  backfillEnabled: 'backfill_enabled',
  flow: 'flow',
  nextSlot: 'next_slot',
  lastError: 'last_error',
};

const ORDER = { createdAt: 'ASC', id: 'ASC' } as const;

/** The owner of a run, as the run needs them: rights read at run time. */
export interface RunOwner {
  uid: number;
  username: string;
  admin: boolean;
  locked: boolean;
  gids: number[];
}

/** The owner's rights as a search by them has them (an admin's too: a run is theirs, not admin mode). */
export function ownerAuth(o: RunOwner): AuthContext {
  return { uid: o.uid, username: o.username, accountAdmin: o.admin, isAdmin: o.admin, gids: o.gids };
}

/** The only file with queries on `scheduled_search` and `scheduled_search_run`. */
@Injectable()
export class ScheduledSearchesRepository {
  constructor(@InjectDataSource() readonly ds: DataSource) {}

  private repo(em?: EntityManager) {
    return (em ?? this.ds.manager).getRepository(ScheduledSearchEntity);
  }

  private runs(em?: EntityManager) {
    return (em ?? this.ds.manager).getRepository(ScheduledSearchRunEntity);
  }

  /**
   * The new ID: undefined when the owner already has `cap` scheduled searches (counted under a
   * per-owner lock, so parallel creations cannot pass the cap together); null for a taken GUID.
   */
  async insert(s: NewScheduledSearch, cap: number): Promise<string | undefined | null> {
    return this.ds.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('scheduled_search_owner'), $1)`, [s.uid]);
      const [{ n }] = (await em.query(`SELECT count(*)::int AS n FROM scheduled_search WHERE uid = $1`, [s.uid])) as Array<{ n: number }>;
      if (n >= cap) return undefined;
      const rows: Array<{ id: string }> = await em.query(
        `INSERT INTO scheduled_search (guid, uid, gids, global, labels, name, description, schedule, timezone, disabled, one_shot_at, debug_mode,
           scheduled_type, search_string, search_reference, duration, search_since_last_run, backfill_enabled, flow, next_slot)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
         ON CONFLICT (guid) DO NOTHING RETURNING id`,
        [
          s.guid,
          s.uid,
          s.gids,
          s.global,
          s.labels,
          s.name,
          s.description,
          s.schedule,
          s.timezone,
          s.disabled,
          s.oneShotAt,
          s.debugMode,
          s.scheduledType,
          s.searchString,
          s.searchReference,
          s.duration,
          s.searchSinceLastRun,
          s.backfillEnabled,
          s.flow,
          s.nextSlot,
        ],
      );
      return rows[0]?.id ?? null;
    });
  }

  findById(id: string): Promise<ScheduledSearchEntity | null> {
    return this.repo().findOneBy({ id });
  }

  findByGuid(guid: string): Promise<ScheduledSearchEntity | null> {
    return this.repo().findOneBy({ guid });
  }

  listAll(): Promise<ScheduledSearchEntity[]> {
    return this.repo().find({ order: ORDER });
  }

  listOwnedBy(uid: number): Promise<ScheduledSearchEntity[]> {
    return this.repo().find({ where: { uid }, order: ORDER });
  }

  listReachable(uid: number, gids: readonly number[]): Promise<ScheduledSearchEntity[]> {
    return whereReachable(this.repo().createQueryBuilder('s'), 's', uid, gids).orderBy('s.created_at', 'ASC').addOrderBy('s.id', 'ASC').getMany();
  }

  async update(id: string, patch: ScheduledSearchPatch): Promise<boolean> {
    try {
      await updateColumns(this.ds, 'scheduled_search', 'id', id, COLUMNS, patch);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    await this.repo().delete({ id });
  }

  /** Deletes every scheduled search of a user; the IDs deleted. */
  async deleteOwnedBy(uid: number): Promise<string[]> {
    const result = (await this.ds.query(`DELETE FROM scheduled_search WHERE uid = $1 RETURNING id`, [uid])) as unknown[];
    const rows = (Array.isArray(result[0]) ? result[0] : result) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** The saved searches of a schedule's runs whose results are still kept. */
  async resultSearchIds(scheduleIds: string[]): Promise<Array<{ searchId: string; uid: number }>> {
    const rows: Array<{ search_id: string; uid: number }> = await this.ds.query(
      `SELECT r.search_id, s.uid FROM scheduled_search_run r JOIN scheduled_search s ON s.id = r.schedule_id
        WHERE r.schedule_id = ANY($1::bigint[]) AND r.search_id IS NOT NULL AND r.results_expire_at > now()`,
      [scheduleIds],
    );
    return rows.map((r) => ({ searchId: r.search_id, uid: r.uid }));
  }

  listRuns(scheduleId: string, limit: number): Promise<ScheduledSearchRunEntity[]> {
    return this.runs().find({ where: { scheduleId }, order: { slot: 'DESC', id: 'DESC' }, take: limit });
  }

  findRun(id: string): Promise<ScheduledSearchRunEntity | null> {
    return this.runs().findOneBy({ id });
  }

  async owner(uid: number): Promise<RunOwner | undefined> {
    const rows: Array<{ uid: number; username: string; admin: boolean; locked: boolean; gids: number[] }> = await this.ds.query(
      `SELECT u.uid, u.username, u.admin, u.locked, coalesce(array_agg(m.gid) FILTER (WHERE m.gid IS NOT NULL), '{}') AS gids
         FROM app_user u LEFT JOIN group_member m ON m.uid = u.uid WHERE u.uid = $1 GROUP BY u.uid`,
      [uid],
    );
    return rows[0];
  }
}
