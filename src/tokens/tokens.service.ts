import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { CapabilityDescription, describeCapabilities } from '../identity/capabilities';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { digestTokenSecret, generateTokenSecret } from '../identity/token-secret';
import { TokenSettingsRepository } from './token-settings.repository';
import {
  assertCanListAll,
  assertTokenApiAllowed,
  grantableCapabilities,
  latestGrantableExpiry,
  parseGrantedCapabilities,
  requireExpiryWithinCaller,
  requireTokenAccess,
  requireWithinCaller,
} from './tokens.access';
import { CreateTokenDto, RegenerateTokenDto, RevokedTokensDto, TokenDto, TokenSettingsDto, TokenWithSecretDto, toTokenDto, UpdateTokenDto } from './tokens.dto';
import { TokenPatch, TokensRepository } from './tokens.repository';

/** Latest accepted expiry. */
const MAX_EXPIRY = Date.parse('9999-12-31T23:59:59.999Z');
const ZERO_TIME = /^0001-01-01T00:00:00(\.0+)?(Z|[+-]00:00)$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Date.parse rolls 2030-02-31 over to March; refuse such days instead. */
function validDay(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return m >= 1 && m <= 12 && date.getUTCDate() === d;
}

/**
 * Expiry from the wire: undefined when absent (keep), null for "never" (null or the zero time),
 * else a future date. A past or malformed timestamp is a 400.
 */
/**
 * `allowPast`: on update a past expiry is stored as it is (the token is then expired: listed,
 * unusable, refreshable), as the product does; on create and refresh it is a 400.
 */
export function parseExpiry(value: string | null | undefined, allowPast = false): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || ZERO_TIME.test(value)) return null;
  const ms = RFC3339.test(value) && validDay(value) ? Date.parse(value.replace(/(\.\d{3})\d+/, '$1')) : NaN;
  if (!Number.isFinite(ms) || ms > MAX_EXPIRY) throw refusal('TOKEN_EXPIRES_AT_INVALID');
  if (!allowPast && ms <= Date.now()) throw refusal('TOKEN_EXPIRES_AT_PAST');
  return new Date(ms);
}

/** The token API (product-notes §1.3). Secrets are generated here, digested at once and returned only on create and refresh. */
@Injectable()
export class TokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokensRepository,
    private readonly settings: TokenSettingsRepository,
  ) {}

  private async allowed(auth: AuthContext): Promise<void> {
    assertTokenApiAllowed(auth, auth.accountAdmin || (await this.settings.nonAdminTokens()));
  }

  /** Names the caller may put on a token; with `detail`, each described, saying whether it grants anything here. */
  async capabilities(auth: AuthContext, detail: boolean): Promise<string[] | CapabilityDescription[]> {
    await this.allowed(auth);
    const names = new Set<string>(grantableCapabilities(auth));
    return detail ? describeCapabilities().filter((c) => names.has(c.Name)) : [...names];
  }

  async create(auth: AuthContext, dto: CreateTokenDto): Promise<TokenWithSecretDto> {
    await this.allowed(auth);
    const capabilities = parseGrantedCapabilities(auth, dto.capabilities);
    const requested = parseExpiry(dto.expiresAt);
    requireExpiryWithinCaller(auth, requested);
    // Absent: never expires, or, when a token makes it, expires with its maker.
    const expiresAt = requested === undefined ? (latestGrantableExpiry(auth) ?? null) : requested;
    const secret = generateTokenSecret();
    const row = await this.tokens.insertWithinLimit(
      {
        id: randomUUID(),
        uid: auth.uid,
        name: dto.name,
        description: dto.description ?? '',
        capabilities,
        expiresAt,
        secretDigest: digestTokenSecret(secret),
        minter: { sessionId: auth.sessionId, tokenId: auth.token?.id },
      },
      this.config.maxTokensPerUser,
    );
    if (!row) throw refusal('TOKEN_LIMIT_REACHED', this.config.maxTokensPerUser);
    return { ...toTokenDto(row), token: secret };
  }

  async list(auth: AuthContext, all: boolean): Promise<TokenDto[]> {
    await this.allowed(auth);
    if (all) assertCanListAll(auth);
    const rows = all ? await this.tokens.listAll() : await this.tokens.listOwned(auth.uid);
    return rows.map(toTokenDto);
  }

  async get(auth: AuthContext, id: string): Promise<TokenDto> {
    await this.allowed(auth);
    return toTokenDto(requireTokenAccess(auth, await this.tokens.findById(id)));
  }

  async update(auth: AuthContext, id: string, dto: UpdateTokenDto): Promise<TokenDto> {
    await this.allowed(auth);
    requireWithinCaller(auth, requireTokenAccess(auth, await this.tokens.findById(id)));
    const patch: TokenPatch = {};
    if (dto.name !== undefined) patch.name = dto.name;
    if (dto.description !== undefined) patch.description = dto.description;
    if (dto.capabilities !== undefined) patch.capabilities = parseGrantedCapabilities(auth, dto.capabilities);
    const expiresAt = parseExpiry(dto.expiresAt, true);
    requireExpiryWithinCaller(auth, expiresAt);
    if (expiresAt !== undefined) patch.expiresAt = expiresAt;
    return toTokenDto(requireTokenAccess(auth, await this.tokens.update(id, patch)));
  }

  /**
   * "Refresh": a new secret; the old secret stops working at once. `expiresAt` sets a new expiry;
   * absent keeps the one it had (an expired token needs a new one).
   */
  async regenerate(auth: AuthContext, id: string, dto: RegenerateTokenDto): Promise<TokenWithSecretDto> {
    await this.allowed(auth);
    const current = requireWithinCaller(auth, requireTokenAccess(auth, await this.tokens.findById(id)));
    const requested = parseExpiry(dto.expiresAt);
    requireExpiryWithinCaller(auth, requested);
    if (requested === undefined && current.expiresAt && current.expiresAt.getTime() <= Date.now()) {
      throw refusal('TOKEN_EXPIRED');
    }
    const expiresAt = requested === undefined ? current.expiresAt : requested;
    const secret = generateTokenSecret();
    const row = requireTokenAccess(auth, await this.tokens.regenerate(id, digestTokenSecret(secret), expiresAt));
    return { ...toTokenDto(row), token: secret };
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.allowed(auth);
    requireTokenAccess(auth, await this.tokens.findById(id));
    if (!(await this.tokens.delete(id))) requireTokenAccess(auth, undefined);
  }

  /** Revokes every token of the caller at once (a response to a leaked secret or session). */
  async deleteAllOwn(auth: AuthContext): Promise<RevokedTokensDto> {
    await this.allowed(auth);
    return { Revoked: await this.tokens.deleteAllOwned(auth.uid) };
  }

  async getSettings(): Promise<TokenSettingsDto> {
    return { NonAdminTokens: await this.settings.nonAdminTokens() };
  }

  async putSettings(dto: TokenSettingsDto): Promise<TokenSettingsDto> {
    await this.settings.setNonAdminTokens(dto.NonAdminTokens);
    return this.getSettings();
  }
}
