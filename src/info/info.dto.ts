import { ApiProperty } from '@nestjs/swagger';

export class CapabilityDescDto {
  @ApiProperty() Cap: number;
  @ApiProperty() Name: string;
  @ApiProperty() Desc: string;
  @ApiProperty() Category: string;
  @ApiProperty({ description: 'Whether a token holding it reaches any API of this service today' }) Grants: boolean;
}

/** What a dashboard client needs to know about this server's limits (product-notes §3.3). */
export class SettingsDto {
  @ApiProperty() DistributedWebservers: boolean;
  @ApiProperty() DisableMapTileProxy: boolean;
  @ApiProperty() MapTileUrl: string;
  @ApiProperty() DisableFeaturePopups: boolean;
  @ApiProperty() CloudMode: boolean;
  @ApiProperty() ServerTime: string;
  @ApiProperty() ServerTimezone: string;
  @ApiProperty({ description: 'Seconds east of UTC' }) ServerTimezoneOffset: number;
  @ApiProperty() MaxFileSize: number;
  @ApiProperty() MaxResourceSize: number;
  @ApiProperty() MaxJsonRequestSize: number;
  @ApiProperty() MaxIngestBatchSize: number;
  @ApiProperty() MaxIngestEntries: number;
  @ApiProperty() MaxSearchesPerUser: number;
  @ApiProperty() RenderStoreLimit: number;
  @ApiProperty() SearchPingTimeoutSeconds: number;
  @ApiProperty() JwtLifetimeSeconds: number;
}
