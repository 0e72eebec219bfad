import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';

export class IngestLinesForm {
  @ApiProperty({ description: 'tag of every entry' })
  @IsString()
  @MaxLength(64)
  tag: string;

  @ApiPropertyOptional({ description: 'source IP of every entry (default: the caller address)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source?: string;

  @ApiPropertyOptional({ description: 'true: every entry is stamped with the current time' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  noparsetimestamp?: boolean;

  @ApiPropertyOptional({ description: 'true: timestamps without a zone are in the server local zone (default UTC)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  assumelocaltimezone?: boolean;

  @ApiPropertyOptional({ description: 'accepted and ignored (the product client sends "reimport")' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;
}

export class IngestResponseDto {
  @ApiProperty() Count: number;
  @ApiProperty() Size: number;
}

export class IngestLinesResponseDto extends IngestResponseDto {
  @ApiProperty({ type: [String] }) Tags: string[];
}
