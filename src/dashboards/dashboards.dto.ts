import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { DashboardEntity } from './dashboard.entity';

export const MAX_DASHBOARD_NAME = 256;
export const MAX_DASHBOARD_DESCRIPTION = 65536;

/** Fields shared by create and update; on update every field is optional (absent keeps the stored value). */
class DashboardFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null means empty' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DASHBOARD_DESCRIPTION)
  Description?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Used if it is a valid UUID, otherwise ignored (a new one is generated on create)' })
  @Allow()
  GUID?: unknown;

  @ApiPropertyOptional({ description: 'Any JSON; blank (absent, null, "") means {}; a string is parsed as JSON text', type: Object })
  @Allow()
  Data?: unknown;
}

export class CreateDashboardDto extends DashboardFieldsDto {
  @ApiProperty()
  @IsString()
  @MaxLength(MAX_DASHBOARD_NAME)
  Name: string;
}

/** Full structure sent back on update: absent fields keep their value, present ones (even empty) replace it. */
export class UpdateDashboardDto extends DashboardFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DASHBOARD_NAME)
  Name?: string | null;
}

export class DashboardDto {
  @ApiProperty({ description: 'Random, 1..2^53-1' }) ID: number;
  @ApiProperty() GUID: string;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty() Created: string;
  @ApiProperty() Updated: string;
  @ApiProperty({ type: [String], nullable: true }) Labels: string[] | null;
  @ApiProperty({ type: Object, description: 'The stored JSON' }) Data: unknown;
  @ApiProperty() Synced: boolean;
}

export function toDashboardDto(d: DashboardEntity): DashboardDto {
  return {
    ID: d.id,
    GUID: d.guid,
    Name: d.name,
    Description: d.description,
    UID: d.uid,
    GIDs: d.gids,
    Global: d.global,
    Created: d.createdAt.toISOString(),
    Updated: d.updatedAt.toISOString(),
    Labels: d.labels,
    Data: d.data,
    Synced: false,
  };
}
