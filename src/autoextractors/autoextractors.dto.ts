import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { AutoextractorEntity } from './autoextractor.entity';

export const MAX_AX_NAME = 256;
export const MAX_AX_DESC = 65536;
export const MAX_AX_PARAMS = 65536;
export const MAX_AX_ARGS = 4096;
export const MAX_AX_TAGS = 64;
export const MAX_AX_MODULE = 32;
/** Tag names are at most 64 characters (ingest.rules.ts); a longer one is refused by the service with the tag rule's words. */
const MAX_TAG_TEXT = 256;
/** A sample to try a definition on (POST /api/autoextractors/test): at most this many characters and lines. */
export const MAX_AX_SAMPLE = 65536;
export const MAX_AX_SAMPLE_LINES = 100;

/** The product's AXDefinition fields a request may set (client/types/autoextract.go), besides the sharing ones. */
class AutoextractorFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: "One tag (the product's Tag); Tag and Tags together are the tags it extracts" })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TAG_TEXT)
  Tag?: string | null;

  @ApiPropertyOptional({ type: [String], nullable: true, description: "More tags (the product's Tags)" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_AX_TAGS)
  @IsString({ each: true })
  @MaxLength(MAX_TAG_TEXT, { each: true })
  Tags?: string[] | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_NAME)
  Name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_DESC)
  Desc?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Module options, as written after the module name in a query (no -e)' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_ARGS)
  Args?: string | null;
}

/** A new definition: Module, Params and a tag are required. UUID, UID (admins only), LastUpdated are filled in. */
export class CreateAutoextractorDto extends AutoextractorFieldsDto {
  @ApiProperty({ description: 'The engine: one of GET /api/autoextractors/engines' })
  @IsString()
  @MaxLength(MAX_AX_MODULE)
  Module: string;

  @ApiProperty({ description: 'csv, fields: the column names in order (a CSV header); regex: the expression; others: the fields as in a query' })
  @IsString()
  @MaxLength(MAX_AX_PARAMS)
  Params: string;
}

/** An update: the definition as returned (absent or null fields keep their value); PUT /api/autoextractors names it by UUID. */
export class UpdateAutoextractorDto extends AutoextractorFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'PUT /api/autoextractors: the definition to change' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  UUID?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_MODULE)
  Module?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_PARAMS)
  Params?: string | null;
}

/** POST /api/autoextractors/test: a definition, optionally the one it will replace (UUID) and a sample to run it on. */
export class TestAutoextractorDto extends CreateAutoextractorDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'An update: the definition it replaces (its tags are no conflict)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  UUID?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Sample entries, one a line (at most ${MAX_AX_SAMPLE_LINES} lines, ${MAX_AX_SAMPLE} characters)` })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AX_SAMPLE)
  Sample?: string | null;
}

export class AutoextractorQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's autoextractors; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class AutoextractorPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

/** The product's AXDefinition (client/types/autoextract.go), plus `Can`: what the caller may do with it. */
export class AutoextractorDto {
  @ApiProperty({ format: 'uuid' }) UUID: string;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group (as the product answers)' }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ description: 'The first tag' }) Tag: string;
  @ApiProperty({ type: [String], description: 'Every tag it extracts (Tag first)' }) Tags: string[];
  @ApiProperty() Name: string;
  @ApiProperty() Desc: string;
  @ApiProperty() Module: string;
  @ApiProperty() Params: string;
  @ApiProperty() Args: string;
  @ApiProperty({ type: [String], nullable: true, description: 'null when none' }) Labels: string[] | null;
  @ApiProperty({ format: 'date-time' }) LastUpdated: string;
  @ApiProperty({ type: AutoextractorPermissionsDto }) Can: AutoextractorPermissionsDto;
}

export class AxSampleResultDto {
  @ApiProperty({ description: 'The sample line' }) Data: string;
  @ApiProperty({ description: 'false: the engine drops this entry (a regex that does not match...)' }) Matched: boolean;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The extracted fields, as text' }) Fields: Record<string, string>;
}

/** The product's test answer (TagExists, Error), plus the fields the definition extracts and its run on the sample. */
export class AxTestResultDto {
  @ApiProperty({ description: 'The caller already has a definition for one of these tags (an error for a new one, none for an update)' }) TagExists: boolean;
  @ApiProperty({ description: 'Always "": a definition the engine refuses is a 400' }) Error: string;
  @ApiProperty({ type: [String], description: 'The fields it extracts' }) Fields: string[];
  @ApiProperty({ type: [AxSampleResultDto], description: 'One per sample line' }) Results: AxSampleResultDto[];
}

export function toAutoextractorDto(a: AutoextractorEntity, can: AutoextractorPermissionsDto): AutoextractorDto {
  return {
    UUID: a.uuid,
    UID: a.uid,
    GIDs: a.gids.length ? a.gids : null,
    Global: a.global,
    Tag: a.tags[0] ?? '',
    Tags: a.tags,
    Name: a.name,
    Desc: a.description,
    Module: a.module,
    Params: a.params,
    Args: a.args,
    Labels: a.labels.length ? a.labels : null,
    LastUpdated: a.updatedAt.toISOString(),
    Can: can,
  };
}
