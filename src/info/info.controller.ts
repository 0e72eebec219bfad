import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, Public } from '../identity/auth.decorators';
import { describeCapabilities } from '../identity/capabilities';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { CapabilityDescDto, SettingsDto } from './info.dto';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json is outside rootDir (src), so an import would not compile
const pkg = require('../../package.json') as { version: string };
const [major, minor, point] = pkg.version.split('.').map(Number);
const STARTED = new Date().toISOString();

class ApiVersion {
  @ApiProperty() Major: number;
  @ApiProperty() Minor: number;
}
class BuildVersion {
  @ApiProperty() Major: number;
  @ApiProperty() Minor: number;
  @ApiProperty() Point: number;
  @ApiProperty() BuildDate: string;
  @ApiProperty() BuildID: string;
  @ApiProperty() GUIBuildID: string;
}
export class VersionDto {
  @ApiProperty() API: ApiVersion;
  @ApiProperty() Build: BuildVersion;
}

@ApiTags('info')
@Controller('api')
export class InfoController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('info/capabilities')
  @Auth({ anyToken: true })
  @ApiOkResponse({ type: [CapabilityDescDto] })
  capabilities(): CapabilityDescDto[] {
    return describeCapabilities();
  }

  @Get('settings')
  @Auth({ anyToken: true })
  @ApiOkResponse({ type: SettingsDto })
  settings(): SettingsDto {
    const c = this.config;
    const now = new Date();
    return {
      DistributedWebservers: false,
      DisableMapTileProxy: true,
      MapTileUrl: '',
      DisableFeaturePopups: true,
      CloudMode: false,
      ServerTime: now.toISOString(),
      ServerTimezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ServerTimezoneOffset: -now.getTimezoneOffset() * 60,
      MaxFileSize: c.maxFileSize,
      MaxResourceSize: c.maxResourceSize,
      MaxJsonRequestSize: c.maxJsonBody,
      MaxIngestBatchSize: c.maxIngestBatchBytes,
      MaxIngestEntries: c.maxIngestEntries,
      MaxSearchesPerUser: c.maxSearchesPerUser,
      RenderStoreLimit: c.renderStoreLimitBytes,
      SearchPingTimeoutSeconds: c.searchPingTimeoutSeconds,
      JwtLifetimeSeconds: c.jwtTtlSeconds,
    };
  }

  @Get('test')
  @Public()
  @Header('Cache-Control', 'no-store')
  test(): void {
    return undefined;
  }

  @Get('testauth')
  @Auth({ anyToken: true })
  testAuth(): void {
    return undefined;
  }

  @Get('version')
  @Public()
  @ApiOkResponse({ type: VersionDto })
  version(): VersionDto {
    return {
      API: { Major: 1, Minor: 0 },
      Build: { Major: major, Minor: minor, Point: point, BuildDate: STARTED, BuildID: pkg.version, GUIBuildID: '' },
    };
  }
}
