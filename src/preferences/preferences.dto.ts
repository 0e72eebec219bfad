import { ApiProperty } from '@nestjs/swagger';
import { PreferenceKind, PREFERENCE_KINDS } from './preference.entity';
import { PreferenceRow } from './preferences.repository';

/** Admin listing record (contract: User preferences table). */
export class UserPreferenceRecordDto {
  @ApiProperty({ description: 'Base64 of the stored JSON' }) Data: string;
  @ApiProperty({ enum: PREFERENCE_KINDS }) Name: PreferenceKind;
  @ApiProperty() Synced: boolean;
  @ApiProperty() UID: number;
  @ApiProperty() Updated: string;
}

export function toUserPreferenceRecordDto(r: PreferenceRow): UserPreferenceRecordDto {
  return { Data: Buffer.from(r.json, 'utf8').toString('base64'), Name: r.name, Synced: false, UID: r.uid, Updated: r.updatedAt.toISOString() };
}
