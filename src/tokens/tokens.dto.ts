import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { NullToAbsent, NullToEmpty, ToBoolean } from '../common/validation/validation';
import { TokenRow } from './tokens.repository';

export const MAX_TOKEN_NAME = 256;
export const MAX_TOKEN_DESCRIPTION = 4096;
/** More than there are capabilities, so a list with duplicates still fits; duplicates are removed. */
export const MAX_TOKEN_CAPABILITY_ITEMS = 256;

const EXPIRES_DOC = 'RFC 3339 timestamp in the future; absent, null or "0001-01-01T00:00:00Z": never expires';

export class CreateTokenDto {
  @ApiProperty({ maxLength: MAX_TOKEN_NAME })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TOKEN_NAME)
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_TOKEN_DESCRIPTION, default: '', nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(MAX_TOKEN_DESCRIPTION)
  description?: string;

  @ApiProperty({ type: [String], description: 'Capability names, case-insensitive; duplicates are removed' })
  @IsArray()
  @ArrayMaxSize(MAX_TOKEN_CAPABILITY_ITEMS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  capabilities: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: EXPIRES_DOC })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  expiresAt?: string | null;
}

/** PUT: a field that is present replaces the stored one; an absent field keeps it. */
export class UpdateTokenDto {
  @ApiPropertyOptional({ maxLength: MAX_TOKEN_NAME, description: 'absent or null keeps the name' })
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TOKEN_NAME)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_TOKEN_DESCRIPTION, nullable: true, description: 'null is empty' })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(MAX_TOKEN_DESCRIPTION)
  description?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TOKEN_CAPABILITY_ITEMS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  capabilities?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: `${EXPIRES_DOC}; absent keeps the current expiry` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  expiresAt?: string | null;
}

/** PATCH: a new secret ("refresh"), with a new expiry or the one it had. */
export class RegenerateTokenDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: `${EXPIRES_DOC}; absent keeps the current expiry (an expired token needs a new one)` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  expiresAt?: string | null;
}

export class CapabilityListQueryDto {
  @ApiPropertyOptional({ description: 'Describe each capability, with whether it grants anything here' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  detail?: boolean;
}

export class TokenListQueryDto {
  @ApiPropertyOptional({ description: "Admins: every user's tokens" })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class RevokedTokensDto {
  @ApiProperty({ description: 'How many tokens were revoked' }) Revoked: number;
}

export class TokenSettingsDto {
  @ApiProperty({ description: 'Non-admin users may use the token API and their tokens' })
  @IsBoolean()
  NonAdminTokens: boolean;
}

export class TokenDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() uid: number;
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional({ description: 'Omitted when the token never expires' }) expiresAt?: string;
  @ApiProperty({ type: [String] }) capabilities: string[];
  @ApiProperty({ type: String, nullable: true, description: 'Last use, recorded at most about once a minute' }) lastUsedAt: string | null;
}

export class TokenWithSecretDto extends TokenDto {
  @ApiProperty({ description: 'The secret: shown only in this response' }) token: string;
}

export function toTokenDto(t: TokenRow): TokenDto {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    uid: t.uid,
    createdAt: t.createdAt.toISOString(),
    ...(t.expiresAt ? { expiresAt: t.expiresAt.toISOString() } : {}),
    capabilities: t.capabilities,
    lastUsedAt: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
  };
}
