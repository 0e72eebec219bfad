import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';
import { MACRO_MAX_EXPANDED_CHARS } from '../query';
import { LabelledSharingFieldsDto } from '../sharing/sharing-fields.dto';
import { MacroEntity } from './macro.entity';

export const MAX_MACRO_NAME = 128;
export const MAX_MACRO_DESCRIPTION = 65536;

class MacroFieldsDto extends LabelledSharingFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MACRO_DESCRIPTION)
  Description?: string | null;
}

/** The product's SearchMacro as a creation body: Name and Expansion, optionally GIDs, Global (admins), UID (admins), Labels. */
export class CreateMacroDto extends MacroFieldsDto {
  @ApiProperty({ description: 'Upper-case letters A-Z, digits, _ and -, starting with a letter or digit; used as $NAME' })
  @IsString()
  @MaxLength(MAX_MACRO_NAME)
  Name: string;

  @ApiProperty({ description: 'The text $NAME expands to; %%1%%, %%2%%... take the arguments of $NAME(a, b)' })
  @IsString()
  @MaxLength(MACRO_MAX_EXPANDED_CHARS)
  Expansion: string;
}

/** The same body as a creation; absent (or null) fields keep their value. ID, LastUpdated, Synced, WriteAccess and Can are ignored. */
export class UpdateMacroDto extends MacroFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MACRO_NAME)
  Name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MACRO_MAX_EXPANDED_CHARS)
  Expansion?: string | null;
}

export class MacroQueryDto {
  @ApiPropertyOptional({ description: "Admins (a session): list every user's macros; ignored for others" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class MacroPermissionsDto {
  @ApiProperty() Delete: boolean;
  @ApiProperty() Modify: boolean;
  @ApiProperty() Share: boolean;
}

export class MacroWriteAccessDto {
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: [Number] }) GIDs: number[];
}

/** The product's SearchMacro (client/types), plus `Can`: what the caller may do with it. */
export class MacroDto {
  @ApiProperty() ID: number;
  @ApiProperty() UID: number;
  @ApiProperty({ type: [Number], nullable: true, description: 'null when shared with no group (as the product answers)' }) GIDs: number[] | null;
  @ApiProperty() Global: boolean;
  @ApiProperty({ type: MacroWriteAccessDto, description: 'Write access beyond the owner: none is granted' }) WriteAccess: MacroWriteAccessDto;
  @ApiProperty() Name: string;
  @ApiProperty() Description: string;
  @ApiProperty() Expansion: string;
  @ApiProperty({ type: [String], nullable: true, description: 'null when none' }) Labels: string[] | null;
  @ApiProperty({ format: 'date-time' }) LastUpdated: string;
  @ApiProperty() Synced: boolean;
  @ApiProperty({ type: MacroPermissionsDto }) Can: MacroPermissionsDto;
}

export function toMacroDto(m: MacroEntity, can: MacroPermissionsDto): MacroDto {
  return {
    ID: Number(m.id),
    UID: m.uid,
    GIDs: m.gids.length ? m.gids : null,
    Global: m.global,
    WriteAccess: { Global: false, GIDs: [] },
    Name: m.name,
    Description: m.description,
    Expansion: m.expansion,
    Labels: m.labels.length ? m.labels : null,
    LastUpdated: m.updatedAt.toISOString(),
    Synced: true,
    Can: can,
  };
}
