import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { PlaybookEntity } from './playbook.entity';

export const MAX_PLAYBOOK_NAME = 256;
export const MAX_PLAYBOOK_DESC = 65536;
export const MAX_AUTHOR_FIELD = 1024;
/** The decoded Metadata (the product console's cover and banner images), a fixed limit. */
export const MAX_PLAYBOOK_METADATA = 64 * 1024;

/** The product's AuthorInfo; each field optional in a request (absent: empty). */
export class PlaybookAuthorDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(MAX_AUTHOR_FIELD) Name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(MAX_AUTHOR_FIELD) Email?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(MAX_AUTHOR_FIELD) Company?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(MAX_AUTHOR_FIELD) URL?: string;
}

class PlaybookFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null: empty' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PLAYBOOK_DESC)
  Desc?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The markdown, base64 (standard alphabet, padded), as the product sends bytes; at most MAX_PLAYBOOK_SIZE decoded',
  })
  @IsOptional()
  @IsString()
  Body?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: "The product console's metadata, base64; at most 64 KiB decoded; null: none" })
  @IsOptional()
  @IsString()
  Metadata?: string | null;

  @ApiPropertyOptional({ type: PlaybookAuthorDto, nullable: true, description: 'Replaces the author (absent fields: empty); null: none' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PlaybookAuthorDto)
  Author?: PlaybookAuthorDto | null;
}

/** The product's Playbook as a creation body. UUID, LastUpdated, Synced, WriteAccess and Can are ignored. */
export class CreatePlaybookDto extends PlaybookFieldsDto {
  @ApiProperty({ description: '1-256 characters' })
  @IsString()
  @MaxLength(MAX_PLAYBOOK_NAME)
  Name: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The global identifier (kits install the same one for everyone); generated when absent' })
  @IsOptional()
  @IsUUID('all', { message: 'GUID must be a UUID' })
  GUID?: string;
}

/** The same body as a creation; absent fields keep their value (null: Name, Body, UID, Global keep; Desc, Labels, GIDs, Metadata, Author clear). */
export class UpdatePlaybookDto extends PlaybookFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PLAYBOOK_NAME)
  Name?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'A new global identifier' })
  @IsOptional()
  @IsUUID('all', { message: 'GUID must be a UUID' })
  GUID?: string;
}

export class PlaybookQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's playbooks; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class PlaybookPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

export class PlaybookWriteAccessDto {
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [Number] }) GIDs: number[];
}

export class PlaybookAuthorInfoDto {
  @ApiProperty() Name: string;
  @ApiProperty() Email: string;
  @ApiProperty() Company: string;
  @ApiProperty() URL: string;
}

/** The product's Playbook (client/types/playbooks.go), plus `Can`: what the caller may do with it. Listings leave Body out, as the product's do. */
export class PlaybookDto {
  @ApiProperty({ format: 'uuid' }) UUID: string;
  @ApiProperty({ format: 'uuid' }) GUID: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group (as the product answers)' }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: PlaybookWriteAccessDto, description: 'Write access beyond the owner: none is granted' }) WriteAccess: PlaybookWriteAccessDto;
  @ApiProperty() Name: string;
  @ApiProperty() Desc: string;
  @ApiPropertyOptional({ description: 'The markdown, base64; absent in listings and when empty' }) Body?: string;
  @ApiPropertyOptional({ description: 'base64; absent when empty' }) Metadata?: string;
  @ApiProperty({ type: [String], nullable: true, description: 'null when none' }) Labels: string[] | null;
  @ApiProperty({ format: 'date-time' }) LastUpdated: string;
  @ApiProperty({ type: PlaybookAuthorInfoDto }) Author: PlaybookAuthorInfoDto;
  @ApiProperty() Synced: boolean;
  @ApiProperty({ type: PlaybookPermissionsDto }) Can: PlaybookPermissionsDto;
}

/** The answer for one playbook (with its Body) or, `withBody` false, a listing's row. */
export function toPlaybookDto(p: PlaybookEntity, can: PlaybookPermissionsDto, withBody: boolean): PlaybookDto {
  return {
    UUID: p.uuid,
    GUID: p.guid,
    UID: p.uid,
    GIDs: p.gids.length ? p.gids : null,
    Global: p.global,
    WriteAccess: { Global: false, GIDs: [] },
    Name: p.name,
    Desc: p.description,
    ...(withBody && p.body?.length && { Body: p.body.toString('base64') }),
    ...(p.metadata?.length && { Metadata: p.metadata.toString('base64') }),
    Labels: p.labels.length ? p.labels : null,
    LastUpdated: p.updatedAt.toISOString(),
    Author: { Name: p.authorName, Email: p.authorEmail, Company: p.authorCompany, URL: p.authorUrl },
    Synced: true,
    Can: can,
  };
}
