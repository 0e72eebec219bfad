import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { IsGroupList } from '../common/validation/group-list';
import { ToBoolean } from '../common/validation/validation';
import { IsGlobalFlag, IsOwnerUid, MAX_LABEL, MAX_LABELS } from '../sharing/sharing-fields.dto';
import { MAX_SCHEDULE_CHARS } from './cron-schedule';
import { ScheduledSearchEntity, ScheduledSearchRunEntity } from './scheduled-search.entity';

export const MAX_SCHEDULED_NAME = 256;
export const MAX_SCHEDULED_DESCRIPTION = 65536;
export const MAX_SCHEDULED_QUERY = 65536;
export const MAX_FLOW_CHARS = 1024 * 1024;
/** The longest Duration: a year back. */
export const MAX_DURATION_SECONDS = 366 * 86400;
const INT32_MAX = 2 ** 31 - 1;
/** Go's zero time, which the product answers for "never". */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** The fields of the product's ScheduledSearch a request may set (the product's names: Owner, Groups). */
class ScheduledSearchFieldsDto {
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Owner; only admins may name another user; null: keep' })
  @IsOwnerUid()
  Owner?: number | null;

  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'Groups whose members may see it and its results; empty or null: nobody' })
  @IsGroupList()
  Groups?: number[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Visible to every user; only admins may set it' })
  @IsGlobalFlag()
  Global?: boolean | null;

  @ApiPropertyOptional({ type: [String], nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LABELS)
  @IsString({ each: true })
  @MaxLength(MAX_LABEL, { each: true })
  Labels?: string[] | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SCHEDULED_DESCRIPTION)
  Description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'IANA time zone the Schedule is read in (e.g. "America/New_York"); empty: UTC' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  Timezone?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true }) @IsOptional() @IsBoolean() Disabled?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'true: run once as soon as possible (the product\'s "Schedule immediately"), besides the schedule' })
  @IsOptional()
  @IsBoolean()
  OneShot?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true }) @IsOptional() @IsBoolean() DebugMode?: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ['search', 'flow'], description: '"search" (default); "flow" is stored but cannot run yet (400)' })
  @IsOptional()
  @IsIn(['search', 'flow', ''])
  ScheduledType?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SCHEDULED_QUERY) SearchString?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'GUID of a search library entry whose query runs (instead of SearchString); the owner must be able to read it',
  })
  @IsOptional()
  @IsUUID()
  SearchReference?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: "Seconds back from each slot the run searches: negative (the product's sign), at most a year" })
  @IsOptional()
  @IsInt()
  @Min(-INT32_MAX)
  @Max(INT32_MAX)
  Duration?: number | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Search from the previous slot to this one instead of Duration (the first run uses Duration)' })
  @IsOptional()
  @IsBoolean()
  SearchSinceLastRun?: boolean | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'Run every slot missed while the service was down (at most SCHEDULE_BACKFILL_MAX_SLOTS); false: only the latest missed slot',
  })
  @IsOptional()
  @IsBoolean()
  BackfillEnabled?: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A flow document (ScheduledType "flow")' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_FLOW_CHARS)
  Flow?: string | null;
}

/** The product's ScheduledSearch as a creation body: Name, Schedule and a query (SearchString or SearchReference). */
export class CreateScheduledSearchDto extends ScheduledSearchFieldsDto {
  @ApiProperty() @IsString() @MaxLength(MAX_SCHEDULED_NAME) Name: string;

  @ApiProperty({ description: 'A cron spec: five fields, or @hourly, @daily, @weekly, @monthly, @yearly' })
  @IsString()
  @MaxLength(MAX_SCHEDULE_CHARS)
  Schedule: string;

  @ApiPropertyOptional({ description: 'A GUID of its own; default: a new one' }) @IsOptional() @IsUUID() GUID?: string;
}

/** The same body; absent (or null) fields keep their value. ID, Updated, LastRun... are ignored. */
export class UpdateScheduledSearchDto extends ScheduledSearchFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SCHEDULED_NAME) Name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SCHEDULE_CHARS) Schedule?: string | null;
}

export class ScheduledSearchQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's scheduled searches; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class RunsQueryDto {
  @ApiPropertyOptional({ description: 'Most recent runs answered (default 50, at most 500)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class NextRunsQueryDto {
  @ApiProperty() @IsString() @MaxLength(MAX_SCHEDULE_CHARS) Schedule: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) Timezone?: string;
  @ApiPropertyOptional({ description: 'How many (default 5, at most 20)' }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(20) count?: number;
}

export class NextRunsDto {
  @ApiProperty({ type: [String], format: 'date-time' }) Next: string[];
  @ApiProperty({ description: 'Shortest gap between slots, seconds (null: fewer than two slots)', type: Number, nullable: true }) IntervalSeconds: number | null;
}

export class ScheduledSearchPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

/** The product's ScheduledSearch (client/types/scheduledsearch.go), plus NextRun and Can. */
export class ScheduledSearchDto {
  @ApiProperty() ID: number;
  @ApiProperty({ format: 'uuid' }) GUID: string;
  @ApiProperty() Owner: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group' }) Groups: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [String], nullable: true }) Labels: string[] | null;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty() Schedule: string;
  @ApiProperty() Timezone: string;
  @ApiProperty({ description: 'Permission bits of the product: always 0' }) Permissions: number;
  @ApiProperty({ format: 'date-time' }) Updated: string;
  @ApiProperty() Disabled: boolean;
  @ApiProperty({ description: 'A run now was asked for and is not queued yet' }) OneShot: boolean;
  @ApiProperty() DebugMode: boolean;
  @ApiProperty() Synced: boolean;
  @ApiProperty() ScheduledType: string;
  @ApiProperty() SearchString: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) SearchReference: string | null;
  @ApiProperty() Duration: number;
  @ApiProperty() SearchSinceLastRun: boolean;
  @ApiProperty() BackfillEnabled: boolean;
  @ApiProperty({ description: 'Scripts do not run here: always empty' }) Script: string;
  @ApiProperty() ScriptVersion: number;
  @ApiProperty() Flow: string;
  @ApiProperty({ type: Object }) PersistentMaps: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', description: `When the last run started; ${ZERO_TIME}: never` }) LastRun: string;
  @ApiProperty({ description: 'Nanoseconds' }) LastRunDuration: number;
  @ApiProperty({ type: [String] }) LastSearchIDs: string[];
  @ApiProperty() LastError: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'The next slot (null: disabled, or none)' }) NextRun: string | null;
  @ApiProperty({ type: ScheduledSearchPermissionsDto }) Can: ScheduledSearchPermissionsDto;
}

/** One run of a scheduled search (one slot). */
export class ScheduledSearchRunDto {
  @ApiProperty() ID: number;
  @ApiProperty({ format: 'date-time' }) Slot: string;
  @ApiProperty({ enum: ['schedule', 'oneshot'] }) Kind: string;
  @ApiProperty({ enum: ['queued', 'running', 'done'] }) State: string;
  @ApiProperty({ description: 'Times a worker took it (more than 1: a worker died during it)' }) Attempt: number;
  @ApiProperty({ format: 'date-time' }) RangeStart: string;
  @ApiProperty({ format: 'date-time' }) RangeEnd: string;
  @ApiProperty({ format: 'date-time' }) Queued: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) Started: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) Finished: string | null;
  @ApiProperty({ description: 'Nanoseconds (0 until finished)' }) Duration: number;
  @ApiProperty({ type: String, nullable: true, description: 'The saved search holding its results' }) SearchID: string | null;
  @ApiProperty() Error: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When its results are deleted' }) ResultsExpire: string | null;
  @ApiProperty({ description: 'Its results can still be opened' }) ResultsAvailable: boolean;
}

export function toScheduledSearchDto(s: ScheduledSearchEntity, can: ScheduledSearchPermissionsDto): ScheduledSearchDto {
  return {
    ID: Number(s.id),
    GUID: s.guid,
    Owner: s.uid,
    Groups: s.gids.length ? s.gids : null,
    Global: s.global,
    Labels: s.labels.length ? s.labels : null,
    Name: s.name,
    Description: s.description,
    Schedule: s.schedule,
    Timezone: s.timezone,
    Permissions: 0,
    Updated: s.updatedAt.toISOString(),
    Disabled: s.disabled,
    OneShot: s.oneShotAt !== null,
    DebugMode: s.debugMode,
    Synced: true,
    ScheduledType: s.scheduledType,
    SearchString: s.searchString,
    SearchReference: s.searchReference,
    Duration: s.duration,
    SearchSinceLastRun: s.searchSinceLastRun,
    BackfillEnabled: s.backfillEnabled,
    Script: '',
    ScriptVersion: 0,
    Flow: s.flow,
    PersistentMaps: {},
    LastRun: s.lastRun ? s.lastRun.toISOString() : ZERO_TIME,
    LastRunDuration: Number(s.lastRunDuration),
    LastSearchIDs: s.lastSearchIds,
    LastError: s.lastError,
    NextRun: !s.disabled && s.nextSlot ? s.nextSlot.toISOString() : null,
    Can: can,
  };
}

export function toRunDto(r: ScheduledSearchRunEntity, now: Date): ScheduledSearchRunDto {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ID: Number(r.id),
    Slot: r.slot.toISOString(),
    Kind: r.kind,
    State: r.state,
    Attempt: r.attempt,
    RangeStart: r.rangeStart.toISOString(),
    RangeEnd: r.rangeEnd.toISOString(),
    Queued: r.queuedAt.toISOString(),
    Started: iso(r.startedAt),
    Finished: iso(r.finishedAt),
    Duration: r.finishedAt && r.startedAt ? (r.finishedAt.getTime() - r.startedAt.getTime()) * 1e6 : 0,
    SearchID: r.searchId,
    Error: r.error,
    ResultsExpire: iso(r.resultsExpireAt),
    ResultsAvailable: r.searchId !== null && r.resultsExpireAt !== null && r.resultsExpireAt.getTime() > now.getTime(),
  };
}
