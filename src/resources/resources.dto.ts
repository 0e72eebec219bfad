import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, ValidateIf } from 'class-validator';
import { IsGlobalFlag } from '../sharing/sharing-fields.dto';
import { NullToAbsent, NullToEmpty, ToBoolean } from '../common/validation/validation';
import { IsDisplayName, IsFreeText } from '../storage/display-name';
import { ResourceEntity } from './resource.entity';
import { IsGroupList } from '../common/validation/group-list';

export class CreateResourceDto {
  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'Group IDs that may read the resource' })
  @IsGroupList()
  GroupACL?: number[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Readable by all users. Only admins may set it.' })
  @IsGlobalFlag()
  Global?: boolean | null;

  @ApiProperty({ description: 'Display name: 1-255 characters, no control characters, "/" or "\\"' })
  @IsString()
  @IsDisplayName()
  ResourceName: string;

  @ApiPropertyOptional()
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @IsFreeText()
  Description?: string;
}

/** PUT metadata: the fetched structure with changed fields; only GroupACL, ResourceName, Description (and Global for admins) count. */
export class UpdateResourceDto {
  @ApiPropertyOptional({ type: [Number], nullable: true })
  @IsGroupList()
  GroupACL?: number[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Admins only; ignored for others' })
  @IsGlobalFlag()
  Global?: boolean | null;

  @ApiPropertyOptional()
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @IsDisplayName()
  ResourceName?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @IsFreeText()
  Description?: string;
}

export class CloneResourceDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: "Name of the clone; the source's name when absent" })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @IsDisplayName()
  Name?: string | null;
}

export class ResourceListQuery {
  @ApiPropertyOptional({ description: 'Admins: list every resource' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class ContentTypeQuery {
  @ApiPropertyOptional({ description: 'Leading bytes to return: default 512; below 128 means 512; more than the size means all' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'bytes must be an integer' })
  bytes?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class ResourceMetadataDto {
  @ApiProperty() UID: number;
  @ApiProperty({ format: 'uuid' }) GUID: string;
  @ApiProperty({ format: 'date-time' }) LastModified: string;
  @ApiProperty() VersionNumber: number;
  @ApiProperty({ type: [Number] }) GroupACL: number[];
  @ApiProperty() Global: boolean;
  @ApiProperty() ResourceName: string;
  @ApiProperty() Description: string;
  @ApiProperty() Size: number;
  @ApiProperty({ description: 'Lower-case hex SHA-256 of the contents; empty without contents' }) Hash: string;
  @ApiProperty() Synced: boolean;
  @ApiProperty() Domain: number;
  @ApiProperty({ type: [String] }) Labels: string[];
}

export class ContentTypeDto {
  @ApiProperty() ContentType: string;
  @ApiProperty({ description: 'Base64 of the leading bytes' }) Body: string;
}

export function toResourceDto(r: ResourceEntity): ResourceMetadataDto {
  return {
    UID: r.uid,
    GUID: r.guid.toLowerCase(),
    LastModified: r.lastModified.toISOString(),
    VersionNumber: r.versionNumber,
    GroupACL: [...r.gids],
    Global: r.global,
    ResourceName: r.name,
    Description: r.description ?? '',
    Size: r.size,
    Hash: r.hash,
    Synced: false,
    Domain: r.domain,
    Labels: [...r.labels],
  };
}
