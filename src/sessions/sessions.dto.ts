import { ApiProperty } from '@nestjs/swagger';
import { SessionEntity } from './session.entity';

export class SessionDto {
  @ApiProperty() LastHit: string;
  @ApiProperty() Origin: string;
  @ApiProperty() Synced: boolean;
  @ApiProperty() TempSession: boolean;
}

export class SessionListDto {
  @ApiProperty({ type: [SessionDto] }) Sessions: SessionDto[];
  @ApiProperty() UID: number;
  @ApiProperty() User: string;
}

export function toSessionDto(s: SessionEntity): SessionDto {
  return { LastHit: s.lastHit.toISOString(), Origin: s.origin, Synced: false, TempSession: s.temp };
}
