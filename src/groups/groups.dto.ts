import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { NullToAbsent, NullToEmpty } from '../common/validation/validation';
import { GroupEntity } from './group.entity';

const GROUP_NAME = /^[^\s/\\][^/\\]*$/;

export class CreateGroupDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  @Matches(GROUP_NAME, { message: 'Name must not start with a space or contain slashes' })
  Name: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(4096)
  Desc?: string;
}

export class UpdateGroupDto {
  @ApiPropertyOptional()
  @IsOptional()
  @NullToAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  @Matches(GROUP_NAME, { message: 'Name must not start with a space or contain slashes' })
  Name?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(4096)
  Desc?: string;
}

export class GroupDetailsDto {
  @ApiProperty() GID: number;
  @ApiProperty() Name: string;
  @ApiProperty() Desc: string;
  @ApiProperty() Synced: boolean;
}

export function toGroupDetails(g: GroupEntity): GroupDetailsDto {
  return { GID: g.gid, Name: g.name, Desc: g.description, Synced: false };
}
