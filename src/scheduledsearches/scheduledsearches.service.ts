import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AuthContext } from '../identity/auth.types';
import { LibraryService } from '../library/library.service';
import { sharingCaller } from '../sharing/access-policy';
import { GroupSharing } from '../sharing/group-sharing';
import { UsersService } from '../users/users.service';
import { CronSchedule } from './cron-schedule';
import { RunExecutor } from './run-executor';
import { ScheduledSearchEntity } from './scheduled-search.entity';
import { scheduledSearchPolicy as policy } from './scheduledsearches.access';
import {
  CreateScheduledSearchDto,
  MAX_DURATION_SECONDS,
  NextRunsDto,
  ScheduledSearchDto,
  ScheduledSearchRunDto,
  toRunDto,
  toScheduledSearchDto,
  UpdateScheduledSearchDto,
} from './scheduledsearches.dto';
import { ownerAuth, ScheduledSearchesRepository, ScheduledSearchPatch } from './scheduledsearches.repository';
import { SCHEDULER_CLOCK, SchedulerClock } from './scheduler.service';

const DEFAULT_DURATION = -3600;

/** Scheduled searches (the product's /api/scheduledsearches) under the shared-object rules (scheduledsearches.access.ts). */
@Injectable()
export class ScheduledSearchesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SCHEDULER_CLOCK) private readonly clock: SchedulerClock,
    private readonly repo: ScheduledSearchesRepository,
    private readonly users: UsersService,
    private readonly sharing: GroupSharing,
    private readonly library: LibraryService,
    private readonly executor: RunExecutor,
  ) {}

  private readonly lookups = { userExists: (uid: number) => this.users.exists(uid) };

  private dto(auth: AuthContext, s: ScheduledSearchEntity): ScheduledSearchDto {
    return toScheduledSearchDto(s, policy.permissions(auth, s));
  }

  /** A schedule as the scheduler reads it: valid, in a known zone, and no closer than SCHEDULE_MIN_INTERVAL_SECONDS. */
  private cron(spec: string, timezone: string): CronSchedule {
    const cron = CronSchedule.parse(spec, timezone);
    const gap = cron.shortestInterval(this.clock.now());
    if (gap < this.config.scheduleMinIntervalSeconds * 1000) throw refusal('SCHEDULE_TOO_FREQUENT', Math.round(gap / 1000), this.config.scheduleMinIntervalSeconds);
    return cron;
  }

  private duration(d: number): number {
    if (d >= 0 || d < -MAX_DURATION_SECONDS) throw refusal('SCHEDULE_DURATION_INVALID', MAX_DURATION_SECONDS);
    return d;
  }

  private requireType(type: string | null | undefined): 'search' {
    if (type && type !== 'search') throw refusal('SCHEDULED_TYPE_UNSUPPORTED', type);
    return 'search';
  }

  /** The owner (who runs it, whoever writes it) must be able to read the referenced library query. */
  private async requireReference(uid: number, guid: string | null): Promise<void> {
    if (!guid) return;
    const owner = await this.repo.owner(uid);
    if (!owner) throw refusal('SCHEDULED_SEARCH_NOT_FOUND');
    await this.library.get(ownerAuth(owner), guid);
  }

  async list(auth: AuthContext, adminFlag?: boolean): Promise<ScheduledSearchDto[]> {
    const c = sharingCaller(auth, adminFlag);
    const rows = c.adminMode ? await this.repo.listAll() : await this.repo.listReachable(auth.uid, auth.gids);
    return rows.filter((s) => policy.listed(c, s)).map((s) => this.dto(auth, s));
  }

  async listAll(auth: AuthContext): Promise<ScheduledSearchDto[]> {
    return (await this.repo.listAll()).map((s) => this.dto(auth, s));
  }

  async listOfUser(auth: AuthContext, uid: number): Promise<ScheduledSearchDto[]> {
    if (!auth.isAdmin && auth.uid !== uid) throw refusal('SCHEDULED_SEARCH_LIST_NOT_YOURS');
    return (await this.repo.listOwnedBy(uid)).map((s) => this.dto(auth, s));
  }

  /** DELETE /api/scheduledsearches/user/{uid} (admins): every scheduled search of a user, with their kept results. */
  async deleteOfUser(auth: AuthContext, uid: number): Promise<void> {
    const owned = await this.repo.listOwnedBy(uid);
    await this.dropResults(owned.map((s) => s.id));
    await this.repo.deleteOwnedBy(uid);
  }

  private async find(id: string): Promise<ScheduledSearchEntity | null> {
    if (isUuid(id)) return this.repo.findByGuid(id.toLowerCase());
    return /^\d{1,18}$/.test(id) ? this.repo.findById(id) : null;
  }

  async get(auth: AuthContext, id: string): Promise<ScheduledSearchDto> {
    return this.dto(auth, policy.require(auth, await this.find(id), 'read'));
  }

  async runs(auth: AuthContext, id: string, limit = 50): Promise<ScheduledSearchRunDto[]> {
    const s = policy.require(auth, await this.find(id), 'read');
    const now = new Date();
    return (await this.repo.listRuns(s.id, limit)).map((r) => toRunDto(r, now));
  }

  nextRuns(schedule: string, timezone: string | undefined, count = 5): NextRunsDto {
    const cron = this.cron(schedule, timezone ?? '');
    const now = this.clock.now();
    const gap = cron.shortestInterval(now);
    return { Next: cron.upcoming(now, count).map((d) => d.toISOString()), IntervalSeconds: Number.isFinite(gap) ? Math.round(gap / 1000) : null };
  }

  /** The new scheduled search's ID (the product answers the bare number). */
  async create(auth: AuthContext, dto: CreateScheduledSearchDto): Promise<number> {
    const timezone = dto.Timezone ?? '';
    const cron = this.cron(dto.Schedule, timezone);
    const type = this.requireType(dto.ScheduledType);
    const searchString = dto.SearchString ?? '';
    const reference = dto.SearchReference?.toLowerCase() ?? null;
    if (!searchString.trim() && !reference) throw refusal('SCHEDULED_SEARCH_QUERY_MISSING');
    const duration = this.duration(dto.Duration ?? DEFAULT_DURATION);
    const { uid, gids, global } = await this.sharing.create(policy, auth, { uid: dto.Owner, gids: dto.Groups, global: dto.Global }, this.lookups);
    await this.requireReference(uid, reference);
    const now = this.clock.now();
    const id = await this.repo.insert(
      {
        guid: dto.GUID?.toLowerCase() ?? randomUUID(),
        uid,
        gids: gids ?? [],
        global,
        labels: dto.Labels ?? [],
        name: dto.Name,
        description: dto.Description ?? '',
        schedule: dto.Schedule.trim(),
        timezone,
        disabled: dto.Disabled ?? false,
        oneShotAt: dto.OneShot ? now : null,
        debugMode: dto.DebugMode ?? false,
        scheduledType: type,
        searchString,
        searchReference: reference,
        duration,
        searchSinceLastRun: dto.SearchSinceLastRun ?? false,
        backfillEnabled: dto.BackfillEnabled ?? false,
        flow: dto.Flow ?? '',
        nextSlot: cron.next(now),
      },
      this.config.scheduledSearchesPerUser,
    );
    if (id === undefined) throw refusal('SCHEDULED_SEARCH_LIMIT', this.config.scheduledSearchesPerUser);
    if (id === null) throw refusal('SCHEDULED_SEARCH_GUID_TAKEN');
    return Number(id);
  }

  /** Absent or null fields keep their value; the updated scheduled search. */
  async update(auth: AuthContext, id: string, dto: UpdateScheduledSearchDto): Promise<ScheduledSearchDto> {
    const s = policy.require(auth, await this.find(id), 'change');
    const { gids, ...sharing } = await this.sharing.update(policy, auth, s, { uid: dto.Owner, gids: dto.Groups, global: dto.Global }, this.lookups);
    const patch: ScheduledSearchPatch = { ...sharing, ...(gids !== undefined && { gids: gids ?? [] }) };
    const now = this.clock.now();
    const schedule = dto.Schedule ?? s.schedule;
    const timezone = dto.Timezone ?? s.timezone;
    const enabling = dto.Disabled === false && s.disabled;
    if (dto.Schedule != null || dto.Timezone != null || enabling) {
      // A new schedule, or one enabled again, starts from now: slots of the disabled time are not backfilled.
      const cron = this.cron(schedule, timezone);
      Object.assign(patch, { schedule: schedule.trim(), timezone, nextSlot: cron.next(now) });
    }
    if (dto.ScheduledType != null) patch.scheduledType = this.requireType(dto.ScheduledType);
    if (dto.Name != null) patch.name = dto.Name;
    if (dto.Description !== undefined) patch.description = dto.Description ?? '';
    if (dto.Labels !== undefined) patch.labels = dto.Labels ?? [];
    if (dto.Disabled != null) patch.disabled = dto.Disabled;
    if (dto.OneShot != null) patch.oneShotAt = dto.OneShot ? now : null;
    if (dto.DebugMode != null) patch.debugMode = dto.DebugMode;
    if (dto.SearchString != null) patch.searchString = dto.SearchString;
    if (dto.SearchReference !== undefined) {
      patch.searchReference = dto.SearchReference?.toLowerCase() ?? null;
      await this.requireReference(patch.uid ?? s.uid, patch.searchReference);
    }
    if (dto.Duration != null) patch.duration = this.duration(dto.Duration);
    if (dto.SearchSinceLastRun != null) patch.searchSinceLastRun = dto.SearchSinceLastRun;
    if (dto.BackfillEnabled != null) patch.backfillEnabled = dto.BackfillEnabled;
    if (dto.Flow != null) patch.flow = dto.Flow;
    const query = patch.searchString ?? s.searchString;
    const reference = patch.searchReference !== undefined ? patch.searchReference : s.searchReference;
    if (!query.trim() && !reference) throw refusal('SCHEDULED_SEARCH_QUERY_MISSING');
    await this.repo.update(s.id, patch);
    const updated = await this.repo.findById(s.id);
    if (!updated) throw refusal('SCHEDULED_SEARCH_NOT_FOUND');
    return this.dto(auth, updated);
  }

  /** DELETE .../error: clears LastError (a later success does not). */
  async clearError(auth: AuthContext, id: string): Promise<void> {
    const s = policy.require(auth, await this.find(id), 'change');
    await this.repo.update(s.id, { lastError: '' });
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const s = policy.require(auth, await this.find(id), 'delete');
    await this.dropResults([s.id]);
    await this.repo.delete(s.id);
  }

  /** The kept results of these schedules' runs that this instance holds. */
  private async dropResults(ids: string[]): Promise<void> {
    for (const r of await this.repo.resultSearchIds(ids)) await this.executor.deleteResults(r.searchId, r.uid);
  }
}
