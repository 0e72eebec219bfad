import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { jsonDeeperThan, jsonTooDeep } from '../common/validation/json-depth';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { HecAcksRepository } from './hec-acks.repository';
import { HecError } from './hec.parse';

/** Splunk channels are GUIDs; any 1-128 printable ASCII characters are accepted. */
const CHANNEL = /^[\x21-\x7e]{1,128}$/;
const MAX_ACKS_PER_QUERY = 10_000;
const SWEEP_EVERY_MS = 60_000;

/**
 * HEC indexer acknowledgement. An ack ID is issued only after its batch is committed, so an ID
 * that answers `true` always stands for stored entries. IDs are numbered per channel of a token
 * owner (from 0, never restarting while the channel is used), are answerable only on that
 * channel by that owner, survive restarts, and expire `hecAckRetentionSeconds` after issue
 * (expired ones answer `false` and are swept every minute).
 */
@Injectable()
export class HecAcksService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(HecAcksService.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: HecAcksRepository,
  ) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.sweep().catch((err) => this.logger.warn({ err }, 'expired HEC ack sweep failed'));
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** The request's channel (checked before anything is stored), or undefined when it names none. */
  checkChannel(channel: string | undefined): string | undefined {
    if (channel !== undefined && !CHANNEL.test(channel)) throw new HecError(400, 11, 'Invalid data channel');
    return channel;
  }

  /** A new ack ID for a committed batch. */
  issue(auth: AuthContext, channel: string): Promise<number> {
    return this.repo.issue(auth.uid, channel, this.config.hecAckRetentionSeconds);
  }

  /** `{"acks": [ids]}` -> `{id: committed}` for the caller's channel. */
  async status(auth: AuthContext, channel: string | undefined, body: Buffer): Promise<Record<string, boolean>> {
    const checked = this.checkChannel(channel);
    if (checked === undefined) throw new HecError(400, 10, 'Data channel is missing');
    const requested = this.parseAckQuery(body);
    const wellFormed = requested.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0);
    const committed = await this.repo.unexpired(auth.uid, checked, wellFormed);
    return Object.fromEntries(requested.map((id) => [String(id), typeof id === 'number' && committed.has(id)]));
  }

  sweep(): Promise<void> {
    return this.repo.deleteExpired();
  }

  private parseAckQuery(body: Buffer): unknown[] {
    const text = body.toString('utf8');
    const max = this.config.maxJsonDepth;
    if (jsonDeeperThan(text, max)) throw new HecError(400, 6, `Invalid data format: ${jsonTooDeep(max)}`);
    let acks: unknown;
    try {
      acks = (JSON.parse(text) as { acks?: unknown } | null)?.acks;
    } catch {
      throw new HecError(400, 6, 'Invalid data format');
    }
    if (!Array.isArray(acks) || acks.length > MAX_ACKS_PER_QUERY) throw new HecError(400, 6, `Invalid data format: acks must be an array of at most ${MAX_ACKS_PER_QUERY} IDs`);
    return acks;
  }
}
