import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { NullToAbsent, NullToEmpty, ToBoolean } from '../common/validation/validation';
import { IsDisplayName, IsFreeText, LABEL_RE } from '../storage/display-name';
import { SharingFieldsDto } from '../sharing/sharing-fields.dto';
import { UserFileEntity } from './user-file.entity';

export const MAX_LABELS = 64;

const ToLabelList = () => Transform(({ value }) => (value === null ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...new Set(value)] : value));

/** Text fields of a multipart upload (simple format: name, desc, guid; detailed format: meta). */
export class FileUploadFieldsDto {
  @IsOptional() @IsString() @MaxLength(1024) name?: string;
  @IsOptional() @IsString() @MaxLength(8192) desc?: string;
  @IsOptional() @IsString() @MaxLength(64) guid?: string;
  @IsOptional() @IsString() @MaxLength(65536) meta?: string;
}

/** Shared by the detailed upload format's `meta` and PATCH (UID: on PATCH only an admin with admin=true). */
export class FileMetaDto extends SharingFieldsDto {
  @ApiPropertyOptional()
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @IsDisplayName()
  Name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @IsFreeText()
  Desc?: string;

  @ApiPropertyOptional({ type: [String], nullable: true })
  @IsOptional()
  @ToLabelList()
  @IsArray()
  @ArrayMaxSize(MAX_LABELS)
  @IsString({ each: true })
  @Matches(LABEL_RE, { each: true, message: 'Labels must be 1-128 characters without control characters' })
  Labels?: string[];
}

/** The detailed format's meta may also carry a GUID (generated when absent). */
export class FileCreateMetaDto extends FileMetaDto {
  @IsOptional()
  @IsUUID('all', { message: 'GUID must be a UUID' })
  GUID?: string;
}

export class FileQuery {
  @ApiPropertyOptional({ description: 'Admins: act on any file; the path names its ThingUUID' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class UserFileDto {
  @ApiProperty({ format: 'uuid' }) GUID: string;
  @ApiProperty({ format: 'uuid' }) ThingUUID: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number] }) GIDs: number[];
  @ApiProperty() Global: boolean;
  @ApiProperty() Size: number;
  @ApiProperty({ description: 'Detected content type' }) Type: string;
  @ApiProperty() Name: string;
  @ApiProperty() Desc: string;
  @ApiProperty({ type: [String] }) Labels: string[];
  @ApiProperty({ format: 'date-time' }) Updated: string;
}

export function toUserFileDto(f: UserFileEntity): UserFileDto {
  return {
    GUID: f.guid.toLowerCase(),
    ThingUUID: f.thingUuid.toLowerCase(),
    UID: f.uid,
    GIDs: [...f.gids],
    Global: f.global,
    Size: f.size,
    Type: f.contentType,
    Name: f.name,
    Desc: f.description ?? '',
    Labels: [...f.labels],
    Updated: f.updated.toISOString(),
  };
}
