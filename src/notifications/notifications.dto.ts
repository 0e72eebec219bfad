import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NullToAbsent, NullToEmpty, ToBoolean, ZeroToAbsent } from '../common/validation/validation';
import { ZERO_TIME } from '../users/users.dto';
import { NotificationEntity } from './notification.entity';

export const LEVELS = ['info', 'warn', 'error', 'critical'] as const;
const INT32_MAX = 2 ** 31 - 1;

/** Fields every sender may set. */
export class NotificationContentDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  Msg: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  Type?: number;

  @ApiPropertyOptional({ description: 'Expiry; default 12 hours from now' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  Expires?: Date;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(2048)
  Link?: string;
}

export class BroadcastNotificationDto extends NotificationContentDto {
  @ApiPropertyOptional({ enum: LEVELS })
  @IsOptional()
  @IsIn(LEVELS)
  Level?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  IgnoreUntil?: Date;
}

export class TargetedNotificationDto extends BroadcastNotificationDto {
  @ApiPropertyOptional({ description: '0 or null: not set' })
  @IsOptional()
  @ZeroToAbsent()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  UID?: number;

  @ApiPropertyOptional({ description: '0 or null: not set' })
  @IsOptional()
  @ZeroToAbsent()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  GID?: number;
}

/** Update: UID, GID, Sender and Broadcast cannot change. */
export class UpdateNotificationDto {
  @ApiPropertyOptional()
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  Msg?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  Type?: number;

  @ApiPropertyOptional({ enum: LEVELS })
  @IsOptional()
  @IsIn(LEVELS)
  Level?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(2048)
  Link?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  Expires?: Date;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  IgnoreUntil?: Date;
}

export class NotificationListQuery {
  @ApiPropertyOptional({ description: 'Only notifications sent after this time' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  after?: Date;

  @ApiPropertyOptional({ description: 'Admins: every notification' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  admin?: boolean;
}

export class NotificationDto {
  @ApiProperty() UID: number;
  @ApiProperty() GID: number;
  @ApiProperty() Sender: number;
  @ApiProperty() Type: number;
  @ApiProperty() Broadcast: boolean;
  @ApiProperty() Sent: string;
  @ApiProperty() Expires: string;
  @ApiProperty() IgnoreUntil: string;
  @ApiProperty() Msg: string;
  @ApiProperty() Origin: string;
  @ApiPropertyOptional() Level?: string;
  @ApiPropertyOptional() Link?: string;
}

export type NotificationSet = Record<string, NotificationDto>;

export function toNotificationDto(n: NotificationEntity): NotificationDto {
  return {
    UID: n.uid ?? 0,
    GID: n.gid ?? 0,
    Sender: n.sender,
    Type: Number(n.type),
    Broadcast: n.broadcast,
    Sent: n.sent.toISOString(),
    Expires: n.expires.toISOString(),
    IgnoreUntil: n.ignoreUntil?.toISOString() ?? ZERO_TIME,
    Msg: n.msg,
    Origin: n.origin,
    ...(n.level ? { Level: n.level } : {}),
    ...(n.link ? { Link: n.link } : {}),
  };
}

export function toNotificationSet(rows: NotificationEntity[]): NotificationSet {
  const out: NotificationSet = {};
  for (const n of rows) out[n.id] = toNotificationDto(n);
  return out;
}
