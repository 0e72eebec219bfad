import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { ToBoolean } from '../common/validation/validation';

export class IdxStatsQueryDto {
  @ApiPropertyOptional({ description: 'Compute the figures now instead of sharing the last ones (at most 1.5 s old); one such computation runs at a time' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  exact?: boolean;
}
