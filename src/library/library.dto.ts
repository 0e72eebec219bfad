import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { LibraryEntryEntity } from './library-entry.entity';

export const MAX_ENTRY_NAME = 256;
export const MAX_ENTRY_TEXT = 65536;

class LibraryEntryFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'UUID; assigned when absent' })
  @Allow()
  GUID?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ENTRY_TEXT)
  Description?: string | null;

  @ApiPropertyOptional({ type: Object, description: 'Any JSON; a string is parsed as JSON text; null or blank: none' })
  @Allow()
  Metadata?: unknown;
}

export class CreateLibraryEntryDto extends LibraryEntryFieldsDto {
  @ApiProperty()
  @IsString()
  @MaxLength(MAX_ENTRY_NAME)
  Name: string;

  @ApiProperty()
  @IsString()
  @MaxLength(MAX_ENTRY_TEXT)
  Query: string;
}

/** The complete entry sent back: absent fields keep their value, present ones replace it. ThingUUID, Can, WriteAccess are ignored. */
export class UpdateLibraryEntryDto extends LibraryEntryFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ENTRY_NAME)
  Name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ENTRY_TEXT)
  Query?: string | null;
}

export class LibraryQueryDto {
  @ApiPropertyOptional({ description: "Admins: act on every user's entries (use the ThingUUID); ignored for non-admins" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class LibraryPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

export class LibraryWriteAccessDto {
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [Number] }) GIDs: number[];
}

export class LibraryEntryDto {
  @ApiProperty() ThingUUID: string;
  @ApiProperty() GUID: string;
  @ApiProperty() UID: number;
  @ApiPropertyOptional({ type: [Number], description: 'Omitted if empty' }) GIDs?: number[];
  @ApiProperty() Global: boolean;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty() Query: string;
  @ApiPropertyOptional({ type: [String], description: 'Omitted if empty' }) Labels?: string[];
  @ApiPropertyOptional({ type: Object, description: 'Omitted if empty' }) Metadata?: unknown;
  @ApiProperty({ type: LibraryPermissionsDto, description: 'What the caller may do (with the same admin flag)' }) Can: LibraryPermissionsDto;
  @ApiProperty({ type: LibraryWriteAccessDto, description: 'Write access beyond the owner: none is granted' }) WriteAccess: LibraryWriteAccessDto;
}

const isEmptyJson = (v: unknown): boolean =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

export function toLibraryEntryDto(e: LibraryEntryEntity, can: LibraryPermissionsDto): LibraryEntryDto {
  const dto: LibraryEntryDto = {
    ThingUUID: e.thingUuid,
    GUID: e.guid,
    UID: e.uid,
    Global: e.global,
    Name: e.name,
    Description: e.description,
    Query: e.query,
    Can: can,
    WriteAccess: { Global: false, GIDs: [] },
  };
  if (e.gids.length) dto.GIDs = e.gids;
  if (e.labels.length) dto.Labels = e.labels;
  if (!isEmptyJson(e.metadata)) dto.Metadata = e.metadata;
  return dto;
}
