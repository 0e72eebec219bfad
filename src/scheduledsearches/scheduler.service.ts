/**
 * The scheduler: which slots are due, queued once each, and run once each, by any of the
 * service's instances sharing the database (README "Scheduled searches").
 *
 *  - Every SCHEDULER_TICK_MS each instance takes the due schedules with `FOR UPDATE SKIP LOCKED`
 *    (two instances never handle one schedule at once), and in ONE transaction inserts a run row
 *    per due slot (unique per schedule and slot: a slot is queued at most once, whoever comes
 *    second inserts nothing), sends its job to the queue (pg-boss, same transaction: a run row
 *    never lacks its job, a job never lacks its row) and moves `next_slot` past now.
 *  - pg-boss hands each job to one worker. A worker takes the run (attempt + 1), runs the search
 *    as its owner and finishes it only while it still holds that attempt: a run finishes once.
 *  - A worker that dies (SIGKILL, power) leaves its job active; pg-boss fails it after
 *    SCHEDULE_RUN_LEASE_SECONDS and retries it, on any instance: the slot runs again, never lost.
 *  - Missed slots (the service was down): with BackfillEnabled each one runs (the latest
 *    SCHEDULE_BACKFILL_MAX_SLOTS; older ones are skipped and LastError says so); without, only the
 *    latest missed slot runs.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { CronSchedule } from './cron-schedule';
import { ScheduledSearchEntity } from './scheduled-search.entity';
import { RunExecutor } from './run-executor';

export const RUN_QUEUE = 'scheduled-search-run';
/** Runs one instance works on at once. */
const RUN_WORKERS = 4;

/** The scheduler's clock (tests drive it). */
export interface SchedulerClock {
  now(): Date;
}
export const SCHEDULER_CLOCK = Symbol('SCHEDULER_CLOCK');
export const systemClock: SchedulerClock = { now: () => new Date() };

interface DueSlot {
  slot: Date;
  kind: 'schedule' | 'oneshot';
}

/** The slots of `s` due at `now`, and the next slot after them; `skipped`: missed slots that will not run. */
export function dueSlots(
  s: Pick<ScheduledSearchEntity, 'schedule' | 'timezone' | 'nextSlot' | 'backfillEnabled' | 'oneShotAt'>,
  now: Date,
  backfillMax: number,
): { slots: DueSlot[]; next: Date | null; skipped: number } {
  const slots: DueSlot[] = [];
  let skipped = 0;
  let next = s.nextSlot;
  if (s.oneShotAt) slots.push({ slot: s.oneShotAt, kind: 'oneshot' });
  if (s.nextSlot && s.nextSlot.getTime() <= now.getTime()) {
    let cron: CronSchedule | undefined;
    try {
      cron = CronSchedule.parse(s.schedule, s.timezone);
    } catch {
      return { slots, next: null, skipped };
    }
    const due: Date[] = [];
    let t: Date | null = s.nextSlot;
    const keep = s.backfillEnabled ? backfillMax : 1;
    while (t && t.getTime() <= now.getTime()) {
      due.push(t);
      if (due.length > keep) {
        due.shift();
        skipped++;
      }
      t = cron.next(t);
    }
    next = t;
    for (const d of due) slots.push({ slot: d, kind: 'schedule' });
  }
  return { slots, next, skipped };
}

@Injectable()
export class Scheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Scheduler.name);
  private boss?: PgBoss;
  private timer?: NodeJS.Timeout;
  private ticking = false;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(SCHEDULER_CLOCK) private readonly clock: SchedulerClock,
    private readonly executor: RunExecutor,
  ) {}

  /** pg-boss on the service's own connection pool (no second pool, same limits and timeouts). */
  private poolDb(): PgBoss.Db {
    const pool = (this.ds.driver as unknown as { master: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } }).master;
    return { executeSql: (text, values) => pool.query(text, values) as Promise<{ rows: any[] }> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- pg-boss's own type
  }

  async onApplicationBootstrap(): Promise<void> {
    const boss = new PgBoss({
      db: this.poolDb(),
      schema: 'pgboss',
      schedule: false,
      maintenanceIntervalSeconds: this.config.scheduleRecoverySeconds,
      monitorStateIntervalSeconds: Math.max(this.config.scheduleRecoverySeconds, 60),
    });
    boss.on('error', (err: Error) => this.logger.warn(`job queue: ${err.message}`));
    await boss.start();
    await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, policy: 'standard' });
    this.boss = boss;
    // A few workers per instance, so that one long search does not hold up the other schedules' slots.
    for (let i = 0; i < RUN_WORKERS; i++) {
      await boss.work<{ runId: string }>(RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, this.config.schedulerTickMs / 1000) }, async (jobs) => {
        for (const job of jobs) await this.executor.run(String(job.data.runId));
      });
    }
    this.timer = setInterval(() => void this.tick(), this.config.schedulerTickMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // An unfinished run keeps its job active: the queue runs it again after its lease (never lost).
    await this.boss?.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
  }

  /** Queues the due slots of due schedules (each in its own short transaction); then drops expired results. */
  async tick(): Promise<void> {
    if (this.ticking || this.stopped || !this.boss) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      for (let more = true; more && !this.stopped;) more = await this.queueDue(now);
      await this.executor.dropExpiredResults(now);
    } catch (err) {
      if (!this.stopped) this.logger.warn(`scheduler: ${(err as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  /** One batch of due schedules; true when there may be more. */
  private async queueDue(now: Date): Promise<boolean> {
    const batch = 50;
    return this.ds.transaction(async (em) => {
      const due = await em
        .getRepository(ScheduledSearchEntity)
        .createQueryBuilder('s')
        .where(`NOT s.disabled AND s.scheduled_type = 'search' AND ((s.next_slot IS NOT NULL AND s.next_slot <= :now) OR s.one_shot_at IS NOT NULL)`, { now })
        .orderBy('s.next_slot', 'ASC', 'NULLS FIRST')
        .limit(batch)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      for (const s of due) await this.queueSlots(em, s, now);
      return due.length === batch;
    });
  }

  private async queueSlots(em: EntityManager, s: ScheduledSearchEntity, now: Date): Promise<void> {
    const { slots, next, skipped } = dueSlots(s, now, this.config.scheduleBackfillMaxSlots);
    const db: PgBoss.Db = { executeSql: async (text, values) => ({ rows: (await em.query(text, values)) as unknown[] }) };
    for (const { slot, kind } of slots) {
      const range = await this.rangeOf(em, s, slot);
      const rows: Array<{ id: string }> = await em.query(
        `INSERT INTO scheduled_search_run (schedule_id, slot, kind, range_start, range_end) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (schedule_id, slot) DO NOTHING RETURNING id`,
        [s.id, slot, kind, range.start, range.end],
      );
      if (!rows[0]) continue;
      await this.boss!.send(
        RUN_QUEUE,
        { runId: rows[0].id },
        { db, expireInSeconds: this.config.scheduleRunLeaseSeconds, retryLimit: 20, retryDelay: 1, retryBackoff: true, singletonKey: `run-${rows[0].id}` },
      );
    }
    const note = skipped
      ? `${skipped} missed slot(s) before ${slots.find((x) => x.kind === 'schedule')?.slot.toISOString()} were skipped (${s.backfillEnabled ? 'more than SCHEDULE_BACKFILL_MAX_SLOTS' : 'BackfillEnabled is off'})`
      : undefined;
    await em.query(
      `UPDATE scheduled_search SET next_slot = $2, one_shot_at = NULL${note && s.backfillEnabled ? ', last_error = $3' : ''} WHERE id = $1`,
      note && s.backfillEnabled ? [s.id, next, note] : [s.id, next],
    );
  }

  /** [slot + Duration, slot]; with SearchSinceLastRun, from the previous slot (the first run: Duration). */
  private async rangeOf(em: EntityManager, s: ScheduledSearchEntity, slot: Date): Promise<{ start: Date; end: Date }> {
    if (s.searchSinceLastRun) {
      const prev: Array<{ slot: Date }> = await em.query(`SELECT max(slot) AS slot FROM scheduled_search_run WHERE schedule_id = $1 AND slot < $2`, [s.id, slot]);
      if (prev[0]?.slot) return { start: new Date(prev[0].slot), end: slot };
    }
    return { start: new Date(slot.getTime() + s.duration * 1000), end: slot };
  }
}
