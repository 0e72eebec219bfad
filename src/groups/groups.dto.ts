import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsAccountName, NullToAbsent, NullToEmpty } from '../common/validation/validation';
import { GroupEntity } from './group.entity';

const GROUP_NAME = /^[^\s/\\][^/\\]*$/;
const GROUP_NAME_MSG = 'Name must not start with a space or contain slashes';

export class CreateGroupDto {
  @ApiProperty()
  @IsAccountName(GROUP_NAME, GROUP_NAME_MSG)
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
  @IsAccountName(GROUP_NAME, GROUP_NAME_MSG)
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
