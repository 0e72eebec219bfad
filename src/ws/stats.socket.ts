import { Injectable, OnModuleInit } from '@nestjs/common';
import { WebSocket } from 'ws';
import { StatsService } from '../stats/stats.service';
import { mapError } from '../common/http/error-filter';
import { CurrentAuth, sendJson, WsHub } from './ws-hub.service';

const SUBPROTOS = ['ping', 'sysDesc', 'idxStats', 'igstStats'] as const;
type Subproto = (typeof SUBPROTOS)[number];
const PUSH_EVERY_MS = 2000;

/**
 * `/api/ws/stats`: the client subscribes with `{"Subs": [...]}` (ACK'd as `{"Resp":"ACK"}`); the
 * server pushes `{"type": <subproto>, "data": ...}` frames, `sysDesc` first, then the others
 * every two seconds. `ping` data is `{"States": {component: status}}`. Every socket reads the
 * same shared computations (StatsService.shared), and a socket's next push waits for its last.
 */
@Injectable()
export class StatsSocket implements OnModuleInit {
  constructor(
    private readonly hub: WsHub,
    private readonly stats: StatsService,
  ) {}

  onModuleInit(): void {
    this.hub.register({ path: '/api/ws/stats', capability: 'Stats', open: (ws, _auth, current) => this.open(ws, current) });
  }

  private open(ws: WebSocket, current: CurrentAuth): void {
    let subs: Subproto[] | undefined;
    let timer: NodeJS.Timeout | undefined;
    let pushing = false;
    const push = (first: boolean) => {
      if (pushing) return;
      pushing = true;
      void this.push(ws, subs!, first, current).finally(() => (pushing = false));
    };
    ws.on('close', () => clearInterval(timer));
    ws.on('message', (raw) => {
      let msg: { Subs?: unknown };
      try {
        msg = JSON.parse(String(raw));
      } catch {
        return sendJson(ws, { Resp: 'ERROR', Error: 'Malformed JSON frame' });
      }
      if (subs) return;
      const wanted = Array.isArray(msg.Subs) ? msg.Subs.filter((s): s is Subproto => SUBPROTOS.includes(s as Subproto)) : [];
      if (!wanted.length) return sendJson(ws, { Resp: 'ERROR', Error: `Subs must name some of ${SUBPROTOS.join(', ')}` });
      subs = wanted;
      sendJson(ws, { Resp: 'ACK' });
      push(true);
      timer = setInterval(() => push(false), PUSH_EVERY_MS);
    });
  }

  private async push(ws: WebSocket, subs: Subproto[], first: boolean, current: CurrentAuth): Promise<void> {
    try {
      await current();
    } catch (err) {
      // Rights taken away since the socket opened (a narrowed token, a lock): no more pushes.
      const { status, message } = mapError(err);
      if (ws.readyState === WebSocket.OPEN) ws.close(status === 401 ? 4401 : 4403, message.slice(0, 120));
      return;
    }
    try {
      if (first && subs.includes('sysDesc')) sendJson(ws, { type: 'sysDesc', data: await this.stats.sysDesc() });
      if (subs.includes('ping')) sendJson(ws, { type: 'ping', data: { States: await this.stats.shared.ping.get() } });
      if (subs.includes('idxStats')) sendJson(ws, { type: 'idxStats', data: await this.stats.shared.idxStats.get() });
      if (subs.includes('igstStats')) sendJson(ws, { type: 'igstStats', data: this.stats.igstStats() });
    } catch {
      if (ws.readyState === WebSocket.OPEN) ws.close(1011, 'stats unavailable');
    }
  }
}
