import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../identity/auth.decorators';
import { IdxStatsQueryDto } from './stats.dto';
import { SysInfo } from './host-info';
import { IndexerStats, IngestStats, StatsService } from './stats.service';

const map = (description: string) => ({ description, schema: { type: 'object', additionalProperties: true } });

@ApiTags('stats')
@Controller('api/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get('ping')
  @Auth({ capability: 'Stats' })
  @ApiOkResponse(map('Component name -> "OK" or "Disconnected"'))
  ping(): Promise<Record<string, string>> {
    return this.stats.ping();
  }

  @Get('sysDesc')
  @Auth({ capability: 'SystemInfoRead' })
  @ApiOkResponse(map('Component name -> SysInfo'))
  sysDesc(): Promise<Record<string, SysInfo>> {
    return this.stats.sysDesc();
  }

  @Get('idxStats')
  @Auth({ capability: 'Stats' })
  @ApiOkResponse(map('Indexer -> day partitions with stored bytes (Data), entries, blocks and raw bytes (exact; exact=true: computed now instead of shared for a few seconds)'))
  idxStats(@Query() q: IdxStatsQueryDto): Promise<Record<string, IndexerStats>> {
    return this.stats.idxStatsFor(q.exact === true);
  }

  @Get('igstStats')
  @Auth({ capability: 'Stats' })
  @ApiOkResponse(map('Indexer -> ingest counters and rates'))
  igstStats(): Record<string, IngestStats> {
    return this.stats.igstStats();
  }
}
