import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/**
 * A scheduled search (the product's ScheduledSearch): what runs (`scheduled_type` "search" with
 * a query or a library reference; "flow" with a flow document, a later slice), when (`schedule`,
 * a cron spec in `timezone`), over what range (`duration` seconds before each slot), and what
 * the last run left. `next_slot` is the first slot the scheduler has not handled yet.
 */
@Entity({ name: 'scheduled_search' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'scheduled_search_uid_fkey', onDelete: 'CASCADE' })
@Index('scheduled_search_uid_idx', ['uid'])
@Index('scheduled_search_gids_idx', ['gids'], { type: 'gin' })
@Index('scheduled_search_due_idx', ['nextSlot'], { where: 'NOT disabled' })
@Check('scheduled_search_type_check', `scheduled_type IN ('search', 'flow')`)
@Check('scheduled_search_duration_check', `duration < 0`)
export class ScheduledSearchEntity extends SharedObjectEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'scheduled_search_pkey' })
  id: string;

  @Column({ type: 'uuid' })
  @Index('scheduled_search_guid_uq', { unique: true })
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 256 })
  schedule: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  timezone: string;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** Run once as soon as possible (the product's "Schedule immediately"); cleared when that run is queued. */
  @Column({ type: 'timestamptz', nullable: true })
  oneShotAt: Date | null;

  @Column({ type: 'boolean', default: false })
  debugMode: boolean;

  @Column({ type: 'varchar', length: 16, default: 'search' })
  scheduledType: string;

  @Column({ type: 'text', default: '' })
  searchString: string;

  @Column({ type: 'uuid', nullable: true })
  searchReference: string | null;

  /** Seconds before each slot the run covers (negative, as the product stores it). */
  @Column({ type: 'integer' })
  duration: number;

  @Column({ type: 'boolean', default: false })
  searchSinceLastRun: boolean;

  @Column({ type: 'boolean', default: false })
  backfillEnabled: boolean;

  /** A flow document (ScheduledType "flow"; a later slice runs it). */
  @Column({ type: 'text', default: '' })
  flow: string;

  @Column({ type: 'timestamptz', nullable: true })
  nextSlot: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastRun: Date | null;

  /** Nanoseconds (the product's time.Duration). */
  @Column({ type: 'bigint', default: 0 })
  lastRunDuration: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  lastSearchIds: string[];

  @Column({ type: 'text', default: '' })
  lastError: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/**
 * One slot of a scheduled search, created once (unique per schedule and slot) in the same
 * transaction as its job in the queue; `attempt` grows each time a worker takes it, and only the
 * worker holding the current attempt may finish it.
 */
@Entity({ name: 'scheduled_search_run' })
@ForeignKey(() => ScheduledSearchEntity, ['scheduleId'], ['id'], { name: 'scheduled_search_run_schedule_fkey', onDelete: 'CASCADE' })
@Index('scheduled_search_run_slot_uq', ['scheduleId', 'slot'], { unique: true })
@Check('scheduled_search_run_state_check', `state IN ('queued', 'running', 'done')`)
export class ScheduledSearchRunEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'scheduled_search_run_pkey' })
  id: string;

  @Column({ type: 'bigint' })
  scheduleId: string;

  @Column({ type: 'timestamptz' })
  slot: Date;

  /** "schedule" (a slot of the cron spec, or a backfilled one) or "oneshot" (run now). */
  @Column({ type: 'varchar', length: 16 })
  kind: string;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  state: string;

  @Column({ type: 'integer', default: 0 })
  attempt: number;

  @Column({ type: 'timestamptz' })
  rangeStart: Date;

  @Column({ type: 'timestamptz' })
  rangeEnd: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  queuedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  searchId: string | null;

  @Column({ type: 'text', default: '' })
  error: string;

  /** When the run's saved results are deleted (SCHEDULED_RESULTS_KEEP_HOURS after it finished). */
  @Column({ type: 'timestamptz', nullable: true })
  @Index('scheduled_search_run_expiry_idx')
  resultsExpireAt: Date | null;
}
