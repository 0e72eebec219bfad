import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { SearchRecordDto } from '../searchhistory/searchhistory.dto';

const INT32_MAX = 2 ** 31 - 1;

/** StartSearchRequest (product-notes §2.3). Filters and Addendum are accepted and ignored. */
export class StartSearchRequestDto {
  @ApiProperty() @IsString() @MaxLength(65536) SearchString: string;
  @ApiPropertyOptional({ description: 'RFC3339; default: SearchEnd minus one hour' }) @IsOptional() @IsString() @MaxLength(64) SearchStart?: string;
  @ApiPropertyOptional({ description: 'RFC3339; default: now' }) @IsOptional() @IsString() @MaxLength(64) SearchEnd?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() Background?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() NoHistory?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() Preview?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() NonTemporal?: boolean;
  @ApiPropertyOptional() @IsOptional() Metadata?: unknown;
  @ApiPropertyOptional() @IsOptional() Addendum?: unknown;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) Name?: string;
  @ApiPropertyOptional() @IsOptional() @IsArray() @ArrayMaxSize(256) Filters?: unknown[];
  @ApiPropertyOptional({ description: 'The product\'s launch information; `method` "dashboard" with `reference` (the dashboard ID or GUID) marks a dashboard\'s search' })
  @IsOptional()
  @IsObject()
  LaunchInfo?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Run the side effects (table -save...) of a query written by someone else (a dashboard of another owner); refused with 403 without it' })
  @IsOptional()
  @IsBoolean()
  ConfirmSideEffects?: boolean;
  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(INT32_MAX, { each: true })
  GIDs?: number[];
  @ApiPropertyOptional() @IsOptional() @IsBoolean() Global?: boolean;
}

export class PingDto {
  @ApiPropertyOptional({ description: 'seconds; 0 keeps the server value' }) @IsOptional() @IsInt() @Min(0) @Max(3600) Interval?: number;
}

export class PingResponseDto {
  @ApiProperty() Interval: number;
}

export class SessionQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsUUID() sid?: string;
}

export class AdminQueryDto {
  @ApiPropertyOptional() @IsOptional() @ToBoolean() @IsBoolean() admin?: boolean;
}

export class RendererQueryDto extends SessionQueryDto {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) first?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) last?: number;
  @ApiPropertyOptional({ description: 'RFC3339' }) @IsOptional() @IsString() @MaxLength(64) start?: string;
  @ApiPropertyOptional({ description: 'RFC3339' }) @IsOptional() @IsString() @MaxLength(64) end?: string;
}

export class GroupsDto {
  @ApiProperty({ type: [Number] }) @IsArray() @ArrayMaxSize(256) @IsInt({ each: true }) @Min(1, { each: true }) @Max(INT32_MAX, { each: true }) GIDs: number[];
}

/** Deprecated single-group form (product-notes §2.7); 0 = none. */
export class GroupDto {
  @ApiProperty() @IsInt() @Min(0) @Max(INT32_MAX) GID: number;
}

export class GlobalDto {
  @ApiProperty() @IsBoolean() Global: boolean;
}

export class ImportFieldsDto {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(INT32_MAX) GID?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) BatchName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(4096) BatchInfo?: string;
}

export class SearchInfoDto extends SearchRecordDto {
  @ApiProperty() ID: string;
  @ApiProperty() StartRange: string;
  @ApiProperty() EndRange: string;
  @ApiProperty() Descending: boolean;
  @ApiProperty() Started: string;
  @ApiProperty({ description: '0001-01-01T00:00:00Z while unfinished' }) Finished: string;
  @ApiProperty() LastUpdate: string;
  @ApiProperty() Duration: string;
  @ApiProperty() StoreSize: number;
  @ApiProperty() IndexSize: number;
  @ApiProperty() ItemCount: number;
  @ApiProperty() TimeZoomDisabled: boolean;
  @ApiProperty() QueryTimeSpecified: boolean;
  @ApiProperty({ type: [String] }) RenderDownloadFormats: string[];
  @ApiProperty() RenderModule: string;
  @ApiPropertyOptional() Metadata?: unknown;
  @ApiPropertyOptional() SaveMetadata?: unknown;
  @ApiProperty() Name: string;
  @ApiProperty() CollapsingIndex: number;
  @ApiProperty() NoHistory: boolean;
  @ApiProperty() Background: boolean;
  @ApiProperty() MinZoomWindow: number;
  @ApiProperty({ type: [String] }) Tags: string[];
  @ApiPropertyOptional() Import?: unknown;
  @ApiProperty() Preview: boolean;
  @ApiPropertyOptional() Error?: string;
  @ApiProperty({ nullable: true, description: 'StartSearchRequest.LaunchInfo, null when none was given' }) LaunchInfo: unknown;
  @ApiProperty() State: string;
}

export class SearchSummaryDto extends SearchRecordDto {
  @ApiProperty() ID: string;
  @ApiProperty() State: string;
  @ApiProperty() AttachedClients: number;
  @ApiProperty({ description: 'bytes stored (results + index)' }) StoredData: number;
  @ApiProperty() StartRange: string;
  @ApiProperty() EndRange: string;
  @ApiProperty() NoHistory: boolean;
  @ApiProperty() Import: unknown;
  @ApiProperty({ nullable: true, description: 'StartSearchRequest.LaunchInfo, null when none was given' }) LaunchInfo: unknown;
  @ApiPropertyOptional() Error?: string;
}

export class LaunchResponseDto {
  @ApiProperty() SearchSessionID: string;
  @ApiProperty({ description: 'seconds between pings' }) RefreshInterval: number;
  @ApiProperty() SearchID: string;
  @ApiProperty() RenderModule: string;
  @ApiProperty() RenderCmd: string;
  @ApiProperty({ type: SearchInfoDto }) Info: SearchInfoDto;
  @ApiProperty({ type: [Object] }) Messages: unknown[];
}

export class OverviewStatsDto {
  @ApiProperty() SearchPosition: string;
  @ApiProperty() Finished: boolean;
  @ApiProperty() OverLimit: boolean;
  @ApiProperty() LimitDroppedRange: { StartTS: string; EndTS: string };
  @ApiProperty() EntryCountValid: boolean;
  @ApiProperty() EntryCount: number;
  @ApiProperty() EntriesScanned: number;
  @ApiProperty() BytesScanned: number;
  @ApiProperty({ type: [Object] }) Stats: unknown[];
  @ApiProperty({ type: [Object] }) Messages: unknown[];
  @ApiPropertyOptional({ description: 'why the search failed (its renderer pages and downloads answer an error status)' }) Error?: string;
}
