import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';

export class IdxStatsQueryDto {
  @ApiPropertyOptional({ description: 'Count every partition exactly (slow on large ones; one such count runs at a time)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  exact?: boolean;
}
