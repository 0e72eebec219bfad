import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsGroupList } from '../common/validation/group-list';

const INT32_MAX = 2 ** 31 - 1;
export const MAX_LABELS = 100;
export const MAX_LABEL = 256;

/**
 * An owner's UID in a request: optional (null: keep), a positive int32. Listed in the order the
 * stacked decorators had (the first refusal of a non-number stays "must not be greater than").
 */
export const IsOwnerUid = () => applyDecorators(Max(INT32_MAX), Min(1), IsInt(), IsOptional());

/** The Global flag in a request: optional (null: keep). Only admins set it. */
export const IsGlobalFlag = () => applyDecorators(IsOptional(), IsBoolean());

/**
 * The sharing fields of a shared object in create and update requests (absent: keep; on create the
 * caller, no groups, not global). Kinds that name them differently (resources' `GroupACL`) use
 * the decorators.
 */
export class SharingFieldsDto {
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Owner; only admins may name another user (files: on update only with ?admin=true); null: keep' })
  @IsOwnerUid()
  UID?: number | null;

  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'Groups shared with; empty or null: nobody' })
  @IsGroupList()
  GIDs?: number[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Visible to every user; only admins may set it; null: keep' })
  @IsGlobalFlag()
  Global?: boolean | null;
}

/** With free labels (dashboards, library): at most 100 of 256 characters each. */
export class LabelledSharingFieldsDto extends SharingFieldsDto {
  @ApiPropertyOptional({ type: [String], nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LABELS)
  @IsString({ each: true })
  @MaxLength(MAX_LABEL, { each: true })
  Labels?: string[] | null;
}
