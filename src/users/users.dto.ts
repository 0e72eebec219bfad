import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsAccountName, NullToAbsent, NullToEmpty } from '../common/validation/validation';
import { GroupDetailsDto, toGroupDetails } from '../groups/groups.dto';
import { GroupEntity } from '../groups/group.entity';
import { UserEntity } from './user.entity';

const USERNAME = /^[A-Za-z0-9._@-]+$/;
const USERNAME_MSG = 'User may contain only letters, digits and . _ @ -';

export class CreateUserDto {
  @ApiProperty()
  @IsAccountName(USERNAME, USERNAME_MSG)
  User: string;

  @ApiProperty({ description: '8 to 72 bytes' })
  @IsString()
  @MinLength(8)
  @MaxLength(72)
  Pass: string;

  @ApiProperty()
  @IsString()
  @MaxLength(256)
  Name: string;

  @ApiProperty()
  @IsString()
  @MaxLength(320)
  Email: string;

  @ApiProperty()
  @IsBoolean()
  Admin: boolean;
}

export class UpdateUserDto {
  @ApiPropertyOptional()
  @IsOptional()
  @NullToAbsent()
  @IsAccountName(USERNAME, USERNAME_MSG)
  User?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(256)
  Name?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(320)
  Email?: string;

  @ApiPropertyOptional({ description: 'Admins only' })
  @IsOptional()
  @IsBoolean()
  Admin?: boolean;
}

export class ChangePasswordDto {
  @ApiPropertyOptional({ description: 'Required unless an admin changes another account' })
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @MaxLength(1024)
  OrigPass?: string;

  @ApiProperty({ description: '8 to 72 bytes' })
  @IsString()
  @MinLength(8)
  @MaxLength(72)
  NewPass: string;
}

export class SearchGroupDto {
  @ApiProperty()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  GID: number;
}

export class AddGroupsDto {
  // Decorators register bottom-up and only the first failure is reported: the array check last.
  @ApiProperty({ type: [Number] })
  @Max(2 ** 31 - 1, { each: true })
  @Min(1, { each: true })
  @IsInt({ each: true })
  @ArrayMaxSize(1000)
  @IsArray()
  GIDs: number[];
}

export class UserDetailsDto {
  @ApiProperty() UID: number;
  @ApiProperty() User: string;
  @ApiProperty() Name: string;
  @ApiProperty() Email: string;
  @ApiProperty() Admin: boolean;
  @ApiProperty() Locked: boolean;
  /** Omitted when unset, as the product does: its client reads 0 as a group. */
  @ApiPropertyOptional({ description: 'Default search group; absent when none is set' }) DefaultGID?: number;
  @ApiProperty({ description: 'Last activity' }) TS: string;
  @ApiProperty() Synced: boolean;
  @ApiProperty({ type: [GroupDetailsDto] }) Groups: GroupDetailsDto[];
  /** Admins only: failed sign-ins in the current LOGIN_WINDOW_SECONDS window; absent when none. */
  @ApiPropertyOptional({ description: 'Shown to admins: failed sign-ins counted against the account now; absent when none' }) FailedLogins?: number;
  /** Admins only: sign-in is refused (429) until then, after too many failed sign-ins; `DELETE /api/users/{id}/lock` clears it. */
  @ApiPropertyOptional({ description: 'Shown to admins: sign-in is refused until this time after too many failed sign-ins; unlocking clears it' })
  LoginBlockedUntil?: string;
}

export class AdminStatusDto {
  @ApiProperty() UID: number;
  @ApiProperty() Admin: boolean;
}

export const ZERO_TIME = '0001-01-01T00:00:00.000Z';

/** An account's failed sign-ins, as an administrator sees them. */
export interface SignInState {
  failures: number;
  blockedUntil?: Date;
}

export function toUserDetails(u: UserEntity, groups: GroupEntity[], signIn?: SignInState): UserDetailsDto {
  return {
    UID: u.uid,
    User: u.username,
    Name: u.name,
    Email: u.email,
    Admin: u.admin,
    Locked: u.locked,
    ...(u.defaultGid ? { DefaultGID: u.defaultGid } : {}),
    TS: (u.lastActive ?? u.createdAt)?.toISOString() ?? ZERO_TIME,
    Synced: false,
    Groups: groups.map(toGroupDetails),
    ...(signIn ? { FailedLogins: signIn.failures } : {}),
    ...(signIn?.blockedUntil ? { LoginBlockedUntil: signIn.blockedUntil.toISOString() } : {}),
  };
}
