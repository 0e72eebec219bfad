import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { HistoryQueryDto, SearchLogDto } from './searchhistory.dto';
import { SearchHistoryService } from './searchhistory.service';

@ApiTags('searchhistory')
@Controller('api/searchhistory')
export class SearchHistoryController {
  constructor(private readonly history: SearchHistoryService) {}

  @Get()
  @Auth({ capability: 'SearchHistory' })
  @ApiOkResponse({ type: [SearchLogDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: HistoryQueryDto): Promise<SearchLogDto[]> {
    return this.history.list(auth, q);
  }

  @Get('user/:uid')
  @Auth({ capability: 'SearchHistory' })
  @ApiOkResponse({ type: [SearchLogDto] })
  listForUser(@CurrentAuth() auth: AuthContext, @Param('uid', IdPipe) uid: number, @Query() q: HistoryQueryDto): Promise<SearchLogDto[]> {
    return this.history.listForUser(auth, uid, q);
  }
}
