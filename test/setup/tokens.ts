import { Server } from 'node:http';
import request from 'supertest';
import { Headers } from './auth';

export interface TestToken {
  id: string;
  /** The secret, as returned once by POST /api/tokens. */
  secret: string;
  /** `{ 'Service-Token': secret }`: send these instead of a login. */
  headers: Headers;
  /** The whole creation response (record + `token`). */
  body: Record<string, unknown>;
}

let seq = 0;

/**
 * Creates an API token through the real API for the user whose `headers` (JWT, or a token
 * holding TokenWrite) are given. `capabilities` are capability names (see src/auth/capabilities.ts).
 */
export async function createToken(
  http: Server,
  headers: Headers,
  capabilities: string[],
  opts: { name?: string; description?: string; expiresAt?: string | null } = {},
): Promise<TestToken> {
  const body: Record<string, unknown> = { name: opts.name ?? `token${++seq}_${process.pid}`, description: opts.description ?? 'test token', capabilities };
  if (opts.expiresAt !== undefined) body.expiresAt = opts.expiresAt;
  const res = await request(http).post('/api/tokens').set(headers).send(body);
  if (res.status !== 200) throw new Error(`create token failed: ${res.status} ${JSON.stringify(res.body)}`);
  const secret = res.body.token as string;
  return { id: res.body.id as string, secret, headers: { 'Service-Token': secret }, body: res.body as Record<string, unknown> };
}
