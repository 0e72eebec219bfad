import { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { TestApp } from './app';

/** Starts the test app listening on an ephemeral port (websockets need a real socket). */
export async function listen(t: TestApp): Promise<string> {
  if (!t.http.listening) await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
  return `ws://127.0.0.1:${(t.http.address() as AddressInfo).port}`;
}

export interface Opened {
  ws: WebSocket;
  next(): Promise<Record<string, unknown>>;
}

/** Opens a websocket and queues its JSON frames; rejects with the HTTP status of a refused upgrade. */
export function openWs(url: string, protocols: string[] = [], headers: Record<string, string> = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    const queue: Array<Record<string, unknown>> = [];
    const waiters: Array<(v: Record<string, unknown>) => void> = [];
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as Record<string, unknown>;
      const w = waiters.shift();
      if (w) w(msg);
      else queue.push(msg);
    });
    // A refused upgrade: its status, headers and JSON body.
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, headers: res.headers, body }));
      });
    });
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        next: () =>
          new Promise((res, rej) => {
            const q = queue.shift();
            if (q) return res(q);
            const timer = setTimeout(() => rej(new Error('no frame within 10 s')), 10_000);
            waiters.push((v) => {
              clearTimeout(timer);
              res(v);
            });
          }),
      }),
    );
  });
}
