import { Module } from '@nestjs/common';
import { IndexerModule } from '../indexer/indexer.module';
import { LookupResourcesModule } from '../search/lookup-resources.module';
import { SearchCtrlModule } from '../searchctrl/searchctrl.module';
import { SessionsModule } from '../sessions/sessions.module';
import { StatsModule } from '../stats/stats.module';
import { SearchSocket } from './search.socket';
import { StatsSocket } from './stats.socket';
import { WsHub } from './ws-hub.service';
import { PendingSearchBudget } from './pending-searches';
import { WsRefusalBrake } from './ws-refusal-brake';

/** Websocket endpoints, authenticated like HTTP requests (JWT also in Sec-WebSocket-Protocol). */
@Module({
  imports: [StatsModule, SearchCtrlModule, IndexerModule, SessionsModule, LookupResourcesModule],
  providers: [WsHub, StatsSocket, SearchSocket, PendingSearchBudget, WsRefusalBrake],
  exports: [WsHub],
})
export class WsModule {}
