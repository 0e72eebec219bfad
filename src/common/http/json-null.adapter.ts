import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * Nest sends an empty body when a handler returns null. The contract (and the product's
 * client, which fails on empty JSON bodies) wants a JSON `null`: a handler returning `null`
 * gets `null`; one returning `undefined` still gets an empty body. Numbers and booleans (a new
 * UID, a search group) are JSON too, not text/html.
 */
export class JsonNullExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body === null) {
      const res = response as { headersSent: boolean; status(c: number): unknown; type(t: string): unknown; send(b: string): unknown };
      if (statusCode) res.status(statusCode);
      res.type('application/json');
      return res.send('null');
    }
    if (typeof body === 'number' || typeof body === 'boolean') {
      const res = response as { status(c: number): unknown; json(b: unknown): unknown };
      if (statusCode) res.status(statusCode);
      return res.json(body);
    }
    return super.reply(response, body, statusCode);
  }
}
