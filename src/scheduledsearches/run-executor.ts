/**
 * One run of a scheduled search: the search launched as its owner (the owner's rights as they are
 * at run time: a run cannot read what the owner could not), over [slot + Duration, slot], saved as
 * a persistent search kept SCHEDULED_RESULTS_KEEP_HOURS; then the run and the schedule's
 * LastRun, LastRunDuration, LastSearchIDs and LastError are written by the worker that still
 * holds the run's attempt (one that lost it to a retry writes nothing).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { LibraryService } from '../library/library.service';
import { LiveSearch } from '../searchctrl/search.model';
import { SearchCtrlService } from '../searchctrl/searchctrl.service';
import { ScheduledSearchEntity } from './scheduled-search.entity';
import { ownerAuth, ScheduledSearchesRepository } from './scheduledsearches.repository';

interface TakenRun {
  id: string;
  attempt: number;
  scheduleId: string;
  slot: Date;
  rangeStart: Date;
  rangeEnd: Date;
  startedAt: Date;
}

/** What a run left: its saved search, or why it has none. */
interface RunOutcome {
  searchId: string | null;
  error: string;
}

@Injectable()
export class RunExecutor {
  private readonly logger = new Logger(RunExecutor.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: ScheduledSearchesRepository,
    private readonly searches: SearchCtrlService,
    private readonly library: LibraryService,
  ) {}

  private get ds() {
    return this.repo.ds;
  }

  /** Runs a queued (or lost and retried) run; a finished one is left alone. */
  async run(runId: string): Promise<void> {
    const taken = await this.take(runId);
    if (!taken) return;
    const schedule = await this.repo.findById(taken.scheduleId);
    if (!schedule) return;
    const outcome = await this.execute(schedule, taken).catch((err: unknown) => {
      // Too busy now (429) or an indexer away (503): the job fails and the queue tries again later.
      if (err instanceof AppError && (err.status === 429 || err.status === 503)) throw err;
      return { searchId: null, error: errorText(err) };
    });
    await this.finish(taken, outcome);
  }

  private async take(runId: string): Promise<TakenRun | undefined> {
    const rows = returned<Record<string, unknown>>(
      await this.ds.query(
        `UPDATE scheduled_search_run SET state = 'running', attempt = attempt + 1, started_at = clock_timestamp()
        WHERE id = $1 AND state <> 'done'
        RETURNING id, attempt, schedule_id, slot, range_start, range_end, started_at`,
        [runId],
      ),
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: String(r.id),
      attempt: Number(r.attempt),
      scheduleId: String(r.schedule_id),
      slot: new Date(r.slot as Date),
      rangeStart: new Date(r.range_start as Date),
      rangeEnd: new Date(r.range_end as Date),
      startedAt: new Date(r.started_at as Date),
    };
  }

  private async execute(s: ScheduledSearchEntity, run: TakenRun): Promise<RunOutcome> {
    if (s.disabled) return { searchId: null, error: 'Not run: the scheduled search was disabled before its turn came' };
    const owner = await this.repo.owner(s.uid);
    if (!owner) return { searchId: null, error: 'Not run: the owner no longer exists' };
    if (owner.locked) return { searchId: null, error: "Not run: the owner's account is locked" };
    const auth = ownerAuth(owner);
    const query = s.searchReference ? (await this.library.get(auth, s.searchReference)).Query : s.searchString;
    const launched = await this.searches.launch(auth, {
      SearchString: query,
      SearchStart: run.rangeStart.toISOString(),
      SearchEnd: run.rangeEnd.toISOString(),
      NoHistory: true,
      Name: `${s.name} (${run.slot.toISOString()})`,
      LaunchInfo: { method: 'scheduledSearch', reference: s.guid },
      // Shared with the schedule's groups the owner still belongs to (members may see the results).
      GIDs: s.gids.filter((g) => owner.gids.includes(g)),
      Global: s.global && owner.admin,
    });
    const id = launched.SearchID;
    let attached = true;
    try {
      await this.searches.save(auth, id, { scheduledSearch: s.guid, slot: run.slot.toISOString() });
      const failed = await this.until(id, (x) => x.finishedAt !== undefined);
      if (failed) return { searchId: null, error: failed };
      // Kept searches move to the saved area once no session holds them.
      await this.searches.release(id, launched.SearchSessionID);
      attached = false;
      const unsaved = await this.until(id, (x) => x.flags.saved);
      return { searchId: unsaved ? null : id, error: unsaved ?? '' };
    } finally {
      if (attached) await this.searches.release(id, launched.SearchSessionID);
    }
  }

  /** Waits until `done` holds for the search; the reason it never will (a failure, or it is gone). */
  private async until(id: string, done: (s: LiveSearch) => boolean): Promise<string | undefined> {
    for (;;) {
      const s = this.searches.find(id);
      if (!s) return 'The search was deleted before its results were saved';
      if (s.failure) return s.failure.reason;
      if (done(s)) return undefined;
      // The move to the saved area replaces the store, whose change signal then never fires: look again within 250 ms.
      await Promise.race([s.store.changed(), new Promise((r) => setTimeout(r, 250))]);
    }
  }

  private async finish(run: TakenRun, outcome: RunOutcome): Promise<void> {
    await this.ds.transaction(async (em) => {
      const keepUntil = outcome.searchId ? new Date(Date.now() + this.config.scheduledResultsKeepHours * 3600_000) : null;
      const done = returned<{ finished_at: Date }>(
        await em.query(
          `UPDATE scheduled_search_run SET state = 'done', finished_at = clock_timestamp(), search_id = $3, error = $4, results_expire_at = $5
          WHERE id = $1 AND attempt = $2 AND state = 'running' RETURNING finished_at`,
          [run.id, run.attempt, outcome.searchId, outcome.error, keepUntil],
        ),
      );
      if (!done[0]) return;
      const ns = (new Date(done[0].finished_at).getTime() - run.startedAt.getTime()) * 1e6;
      await em.query(
        `UPDATE scheduled_search SET last_run = $2, last_run_duration = $3, last_search_ids = $4,
           last_error = CASE WHEN $5 = '' THEN last_error ELSE $5 END
         WHERE id = $1 AND (last_run IS NULL OR last_run <= $2)`,
        [run.scheduleId, run.startedAt, ns, outcome.searchId ? [outcome.searchId] : [], outcome.error],
      );
    });
    if (outcome.error) this.logger.log(`scheduled search ${run.scheduleId} slot ${run.slot.toISOString()}: ${outcome.error}`);
  }

  /** Deletes the saved results of runs past their keep time that this instance holds. */
  async dropExpiredResults(now: Date): Promise<void> {
    const held = this.searches.heldIds();
    if (!held.length) return;
    const rows: Array<{ search_id: string; uid: number }> = await this.ds.query(
      `SELECT r.search_id, s.uid FROM scheduled_search_run r JOIN scheduled_search s ON s.id = r.schedule_id
        WHERE r.results_expire_at <= $1 AND r.search_id = ANY($2::text[])`,
      [now, held],
    );
    for (const r of rows) await this.deleteResults(r.search_id, r.uid);
  }

  /** Deletes a run's saved search (as its owner) when this instance holds it. */
  async deleteResults(searchId: string, uid: number): Promise<void> {
    const owner = await this.repo.owner(uid);
    if (!owner || !this.searches.find(searchId)) return;
    await this.searches.delete(ownerAuth(owner), searchId).catch((err: unknown) => this.logger.warn(`results ${searchId}: ${errorText(err)}`));
  }
}

/** The rows of an UPDATE or DELETE ... RETURNING (TypeORM answers [rows, count] for those). */
export function returned<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

function errorText(err: unknown): string {
  return String(err instanceof Error ? err.message : err).slice(0, 4096);
}
