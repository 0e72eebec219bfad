import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { HistoryRow } from './searchhistory.repository';

export const MAX_HISTORY_PAGE = 10000;
export const DEFAULT_HISTORY_PAGE = 1000;

export class HistoryQueryDto {
  @ApiPropertyOptional({ description: 'admins: every user' }) @IsOptional() @ToBoolean() @IsBoolean() admin?: boolean;
  @ApiPropertyOptional({ description: 'substring of the query' }) @IsOptional() @IsString() @MaxLength(1024) refine?: string;
  @ApiPropertyOptional({ description: 'first index, 0 = most recent' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(1_000_000_000) start?: number;
  @ApiPropertyOptional({ description: 'end index (exclusive)' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(1_000_000_000) end?: number;
}

/** What every record of a search carries (a history entry, a persistent search): its owner, its sharing, its query as typed and as run. */
export class SearchRecordDto {
  @ApiProperty() UID: number;
  @ApiProperty() GID: number;
  @ApiProperty({ type: [Number] }) GIDs: number[];
  @ApiProperty() Global: boolean;
  @ApiProperty() UserQuery: string;
  @ApiProperty() EffectiveQuery: string;
}

export class SearchLogDto extends SearchRecordDto {
  @ApiProperty() Launched: string;
  @ApiProperty() Synced: boolean;
}

export function toSearchLogDto(r: HistoryRow): SearchLogDto {
  return { UID: r.uid, GID: r.gid, GIDs: r.gids, Global: r.global, UserQuery: r.userQuery, EffectiveQuery: r.effectiveQuery, Launched: r.launched.toISOString(), Synced: true };
}
