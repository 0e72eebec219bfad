import { Module } from '@nestjs/common';
import { StatsModule } from '../stats/stats.module';
import { StatsSocket } from './stats.socket';
import { WsHub } from './ws-hub.service';

/** Websocket endpoints, authenticated like HTTP requests (JWT also in Sec-WebSocket-Protocol). */
@Module({
  imports: [StatsModule],
  providers: [WsHub, StatsSocket],
  exports: [WsHub],
})
export class WsModule {}
