import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { PivotEntity } from './pivot.entity';
import { PIVOT_LIMITS } from './pivot-contents';

export const MAX_PIVOT_DESCRIPTION = 65536;

class PivotTriggerDto {
  @ApiProperty({ description: 'A regular expression (RE2 syntax, also JavaScript); /pattern/flags is read as its body (and the i flag)' }) pattern: string;
  @ApiProperty({ description: 'Offered on a click (true) or only on selected text (false)' }) hyperlink: boolean;
  @ApiProperty() disabled: boolean;
}

class PivotTimeVariableDto {
  @ApiProperty({ enum: ['timestamp', 'string'] }) type: 'timestamp' | 'string';
  @ApiProperty({ type: String, nullable: true }) format: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Defaults to _START_ (start) and _END_ (end)' }) placeholder: string | null;
}

class PivotCommandOptionsDto {
  @ApiPropertyOptional() variable?: string;
  @ApiPropertyOptional() modal?: boolean;
  @ApiPropertyOptional() modalWidth?: string;
  @ApiPropertyOptional() noValueUrlEncode?: boolean;
}

class PivotCommandDto {
  @ApiProperty({ enum: ['query', 'template', 'savedQuery', 'dashboard', 'url'] }) type: 'query' | 'template' | 'savedQuery' | 'dashboard' | 'url';
  @ApiProperty({ description: 'The query (query), an http(s) address (url), or a GUID (dashboard, template, savedQuery)' }) reference: string;
  @ApiProperty({ type: PivotCommandOptionsDto }) options: PivotCommandOptionsDto;
}

class PivotActionDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'What the matched value replaces; null: _VALUE_' }) placeholder: string | null;
  @ApiPropertyOptional() noValueUrlEncode?: boolean;
  @ApiPropertyOptional({ type: PivotTimeVariableDto }) start?: PivotTimeVariableDto;
  @ApiPropertyOptional({ type: PivotTimeVariableDto }) end?: PivotTimeVariableDto;
  @ApiProperty({ type: PivotCommandDto }) command: PivotCommandDto;
}

export class PivotContentsDto {
  @ApiProperty({ type: String, nullable: true, description: 'The menu it shows under; null: its name' }) menuLabel: string | null;
  @ApiProperty({ type: [PivotActionDto], description: `At most ${PIVOT_LIMITS.actions}` }) actions: PivotActionDto[];
  @ApiProperty({ type: [PivotTriggerDto], description: `At most ${PIVOT_LIMITS.triggers}; a string is read as {pattern, hyperlink: true}` }) triggers: PivotTriggerDto[];
}

class PivotFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(PIVOT_LIMITS.name)
  Name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PIVOT_DESCRIPTION)
  Description?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true })
  @IsOptional()
  @IsBoolean()
  Disabled?: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Ignored on update (the GUID never changes)' })
  @IsOptional()
  GUID?: unknown;

  /** Checked by pivot-contents.ts (it names the field at fault). */
  @ApiPropertyOptional({ type: PivotContentsDto, nullable: true })
  @IsOptional()
  Contents?: unknown;
}

/** The product's pivot as a creation body: Contents, optionally GUID, Name, Description, Labels, Disabled, GIDs, Global (admins), UID (admins). */
export class CreatePivotDto extends PivotFieldsDto {}

/** The same body as a GET answers; absent (or null) fields keep their value. GUID, ThingUUID, Updated, WriteAccess and Can are ignored. */
export class UpdatePivotDto extends PivotFieldsDto {}

export class PivotQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's actionables, and reach one by its ThingUUID; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class PivotPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

export class PivotWriteAccessDto {
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [Number] }) GIDs: number[];
}

/** The product's WirePivot (client/types/things.go), plus `Can`: what the caller may do with it. */
export class PivotDto {
  @ApiProperty({ format: 'uuid' }) GUID: string;
  @ApiProperty({ format: 'uuid' }) ThingUUID: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group (as the product answers)' }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: PivotWriteAccessDto, description: 'Write access beyond the owner: none is granted' }) WriteAccess: PivotWriteAccessDto;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty({ format: 'date-time' }) Updated: string;
  @ApiProperty({ type: PivotContentsDto }) Contents: PivotContentsDto;
  @ApiProperty({ type: [String], nullable: true, description: 'null when none' }) Labels: string[] | null;
  @ApiProperty() Disabled: boolean;
  @ApiProperty({ type: PivotPermissionsDto }) Can: PivotPermissionsDto;
}

export function toPivotDto(p: PivotEntity, can: PivotPermissionsDto): PivotDto {
  return {
    GUID: p.guid,
    ThingUUID: p.thingUuid,
    UID: p.uid,
    GIDs: p.gids.length ? p.gids : null,
    Global: p.global,
    WriteAccess: { Global: false, GIDs: [] },
    Name: p.name,
    Description: p.description,
    Updated: p.updatedAt.toISOString(),
    Contents: p.contents as PivotContentsDto,
    Labels: p.labels.length ? p.labels : null,
    Disabled: p.disabled,
    Can: can,
  };
}
