import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, Public } from '../auth/auth.decorators';

// eslint-disable-next-line @typescript-eslint/no-require-imports
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
