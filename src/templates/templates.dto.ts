import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { TEMPLATE_MAX_QUERY_CHARS, TEMPLATE_MAX_VARIABLE_NAME, TEMPLATE_MAX_VARIABLE_TEXT, TEMPLATE_MAX_VARIABLES } from '../query';
import { LabelledSharingFieldsDto, SharingFieldsDto } from '../sharing/sharing-fields.dto';
import { TemplateEntity } from './template.entity';

export const MAX_TEMPLATE_NAME = 256;
export const MAX_TEMPLATE_DESCRIPTION = 65536;

/** The product's TemplateVariable (client/types/things.go), with its json names. */
export class TemplateVariableDto {
  @ApiProperty({ description: `The text standing for the variable in the query, e.g. %%IP%%: 1 to ${TEMPLATE_MAX_VARIABLE_NAME} characters, no whitespace` })
  name: string;
  @ApiProperty({ description: 'Shown when asking for a value' }) label: string;
  @ApiProperty({ description: 'A hint shown with the label' }) description: string;
  @ApiProperty({ description: 'A value must be given (or the default is used)' }) required: boolean;
  @ApiProperty({ description: 'The value when none is given' }) defaultValue: string;
  @ApiProperty({ type: String, nullable: true, description: "The editor's example value" }) previewValue: string | null;
}

/** The product's TemplateContents: the query and its variables. */
export class TemplateContentsDto {
  @ApiProperty({ description: `At most ${TEMPLATE_MAX_QUERY_CHARS} characters` }) query: string;
  @ApiProperty({ type: [TemplateVariableDto], description: `At most ${TEMPLATE_MAX_VARIABLES}; names unique; texts at most ${TEMPLATE_MAX_VARIABLE_TEXT} characters` })
  variables: TemplateVariableDto[];
}

class TemplateFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'On create: the GUID content names it by (assigned when absent); on update: a new GUID, or absent to keep' })
  @Allow()
  GUID?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_NAME)
  Name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_DESCRIPTION)
  Description?: string | null;
}

/** The product's UserTemplate as a creation body: Contents {query, variables}, Name, Description, optionally GUID, Labels, GIDs, Global (admins), UID (admins). */
export class CreateTemplateDto extends TemplateFieldsDto {
  @ApiProperty({ type: TemplateContentsDto })
  @Allow()
  Contents: unknown;
}

/** The WireUserTemplate sent back: absent (or null) fields keep their value. ThingUUID, Updated, WriteAccess and Can are ignored. */
export class UpdateTemplateDto extends TemplateFieldsDto {
  @ApiPropertyOptional({ type: TemplateContentsDto, nullable: true })
  @Allow()
  Contents?: unknown;
}

/** PUT /api/templates/{id}/details: the sharing only (GIDs; UID and Global by admins); other fields are ignored. */
export class TemplateDetailsUpdateDto extends SharingFieldsDto {}

export class FillTemplateDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Variable name (e.g. "%%IP%%") to value; a variable left out takes its defaultValue',
  })
  @Allow()
  Values?: unknown;
}

export class FilledTemplateDto {
  @ApiProperty({ description: 'The query with every variable replaced, to launch as any query' }) Query: string;
}

export class TemplateQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's templates; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class TemplatePermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

export class TemplateWriteAccessDto {
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [Number] }) GIDs: number[];
}

/** GET /api/templates/{id}/details: who owns it and with whom it is shared. */
export class TemplateDetailsDto {
  @ApiProperty() ThingUUID: string;
  @ApiProperty() GUID: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group' }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: TemplateWriteAccessDto, description: 'Write access beyond the owner: none is granted' }) WriteAccess: TemplateWriteAccessDto;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty({ type: [String], nullable: true, description: 'null when none' }) Labels: string[] | null;
  @ApiProperty({ format: 'date-time' }) Updated: string;
  @ApiProperty({ type: TemplatePermissionsDto, description: 'What the caller may do' }) Can: TemplatePermissionsDto;
}

/** The product's WireUserTemplate (client/types/things.go), plus `Can`. */
export class TemplateDto extends TemplateDetailsDto {
  @ApiProperty({ type: TemplateContentsDto }) Contents: TemplateContentsDto;
}

export function toTemplateDetailsDto(t: TemplateEntity, can: TemplatePermissionsDto): TemplateDetailsDto {
  return {
    ThingUUID: t.thingUuid,
    GUID: t.guid,
    UID: t.uid,
    GIDs: t.gids.length ? t.gids : null,
    Global: t.global,
    WriteAccess: { Global: false, GIDs: [] },
    Name: t.name,
    Description: t.description,
    Labels: t.labels.length ? t.labels : null,
    Updated: t.updatedAt.toISOString(),
    Can: can,
  };
}

export function toTemplateDto(t: TemplateEntity, can: TemplatePermissionsDto): TemplateDto {
  return { ...toTemplateDetailsDto(t, can), Contents: { query: t.query, variables: t.variables } };
}
