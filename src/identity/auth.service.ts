import { Injectable, Logger } from '@nestjs/common';
import { refusal } from '../common/errors/app-error';
import { digestTokenSecret, isWellFormedTokenSecret } from './token-secret';
import { AuthRepository } from './auth.repository';
import { AuthContext } from './auth.types';
import { Credential, isJwtShaped } from './credentials';
import { Capability, parseCapability } from './capabilities';
import { JwtKeyService } from './jwt-key.service';

/** Why a well-formed secret matches no token. */
const UNUSABLE_TOKEN = { unknown: 'UNKNOWN_API_TOKEN', revoked: 'API_TOKEN_REVOKED', replaced: 'API_TOKEN_REFRESHED' } as const;
const TOUCH_EVERY_MS = 30_000;
const TOKEN_TOUCH_EVERY_MS = 60_000;

/**
 * Establishes who is calling, from a JWT (`Authorization: Bearer`) or an API token
 * (`Service-Token`). Both are checked against the database on every request, so a lock,
 * logout, demotion or group removal takes effect on the very next request.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  private readonly lastTouch = new Map<string, number>();

  constructor(
    private readonly jwt: JwtKeyService,
    private readonly identities: AuthRepository,
  ) {}

  /** Who presents this credential (credentials.ts reads it from a request or a websocket upgrade). */
  authenticate(credential: Credential): Promise<AuthContext> {
    return credential.kind === 'token' ? this.fromToken(credential.secret) : this.fromJwt(credential.jwt);
  }

  async fromJwt(token: string): Promise<AuthContext> {
    const claims = isJwtShaped(token) ? this.jwt.verify(token) : undefined;
    if (!claims) throw refusal('INVALID_JWT');
    const s = await this.identities.findSession(claims.sid);
    if (!s || s.uid !== claims.uid) throw refusal('SESSION_ENDED');
    if (s.expiresAt.getTime() <= Date.now()) throw refusal('SESSION_EXPIRED');
    if (s.locked) throw refusal('ACCOUNT_LOCKED');
    this.touchSession(s.sid, s.uid, s.lastHit);
    return { uid: s.uid, username: s.username, accountAdmin: s.admin, isAdmin: s.admin, gids: s.gids, sessionId: s.sid };
  }

  async fromToken(secret: string | undefined): Promise<AuthContext> {
    const value = (secret ?? '').trim();
    if (!isWellFormedTokenSecret(value)) throw refusal('MALFORMED_API_TOKEN');
    const digest = digestTokenSecret(value);
    const t = await this.identities.findToken(digest);
    if (!t) throw refusal(UNUSABLE_TOKEN[(await this.identities.revokedToken(digest)) ?? 'unknown']);
    if (t.expiresAt && t.expiresAt.getTime() <= Date.now()) throw refusal('API_TOKEN_EXPIRED');
    if (t.locked) throw refusal('ACCOUNT_LOCKED');
    if (!t.tokensAllowed) throw refusal('API_TOKENS_TURNED_OFF');
    this.touchToken(t.id);
    const caps = new Set(t.capabilities.map(parseCapability).filter((c): c is Capability => c !== undefined));
    return { uid: t.uid, username: t.username, accountAdmin: t.admin, isAdmin: false, gids: t.gids, token: { id: t.id, capabilities: caps, expiresAt: t.expiresAt } };
  }

  private touchSession(sid: string, uid: number, lastHit: Date): void {
    const now = Date.now();
    if (now - lastHit.getTime() < TOUCH_EVERY_MS || now - (this.lastTouch.get(sid) ?? 0) < TOUCH_EVERY_MS) return;
    this.remember(sid, now);
    this.identities.touchSession(sid, uid).catch((err) => this.logger.warn({ err }, 'could not record session activity'));
  }

  private touchToken(id: string): void {
    const now = Date.now();
    if (now - (this.lastTouch.get(id) ?? 0) < TOKEN_TOUCH_EVERY_MS) return;
    this.remember(id, now);
    this.identities.touchToken(id).catch((err) => this.logger.warn({ err }, 'could not record token use'));
  }

  private remember(key: string, now: number): void {
    if (this.lastTouch.size > 100_000) this.lastTouch.clear();
    this.lastTouch.set(key, now);
  }
}
