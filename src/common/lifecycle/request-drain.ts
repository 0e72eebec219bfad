import { Server } from 'node:http';

/**
 * Counts the HTTP requests in flight so that a shutdown can let them finish: `drain()` stops
 * accepting connections, closes idle keep-alive ones, asks clients of requests still arriving on
 * open connections to close them, and waits until nothing is in flight or the time is up.
 * Websocket upgrades are not requests here: their owner closes them.
 */
export class RequestDrain {
  private inFlight = 0;
  private draining = false;
  private onIdle?: () => void;

  constructor(private readonly server: Server) {
    server.on('request', (_req, res) => {
      this.inFlight++;
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
      res.once('close', () => {
        if (--this.inFlight === 0) this.onIdle?.();
      });
    });
  }

  /** Resolves true when every request finished, false when `timeoutMs` ran out first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    this.server.close();
    this.server.closeIdleConnections();
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.onIdle = () => {
        clearTimeout(timer);
        this.server.closeIdleConnections();
        resolve(true);
      };
    });
  }

  get pending(): number {
    return this.inFlight;
  }
}
