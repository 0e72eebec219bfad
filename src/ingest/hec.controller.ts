import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Public } from '../auth/auth.decorators';
import { AuthService } from '../auth/auth.service';
import { AppError } from '../common/errors/app-error';
import { mapError } from '../common/http/error-filter';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { clientAddress, readBody } from './body';
import { checkSource, tagNameProblem } from './ingest.rules';
import { IngestService, PendingEntry } from './ingest.service';
import { hecFields, HecError, splitConcatenatedJson } from './hec.parse';
import { hecTime } from './timestamps';

const q = (req: Request, name: string): string | undefined => {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Splunk HTTP Event Collector compatible ingest (product-notes §5.4). Routes are public for the
 * guard and authenticate themselves: `Authorization: Splunk <api token>` or `?token=`, which must
 * hold the `Ingest` capability. Every answer is HEC shaped: `{"text", "code"}` (+ `"Error"` on failures).
 */
@ApiTags('ingest')
@Controller('services/collector')
export class HecController {
  private ackSeq = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly ingest: IngestService,
  ) {}

  @Get(['health', 'health/1.0'])
  @Public()
  health(@Res() res: Response): void {
    res.status(200).json({ text: 'HEC is healthy', code: 17 });
  }

  @Post(['', 'event', 'event/1.0'])
  @Public()
  async event(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.handle(req, res, async (body) => this.events(req, body));
  }

  @Post(['raw', 'raw/1.0'])
  @Public()
  async raw(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.handle(req, res, async (body) => {
      const tag = this.tagFor(req, q(req, 'sourcetype'));
      const entries = this.ingest.linesToEntries(body, tag, clientAddress(req), true, false);
      if (!entries.length) throw new HecError(400, 5, 'No data');
      return entries;
    });
  }

  @Post('ack')
  @Public()
  async ack(@Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      await this.authenticate(req);
      const body = await readBody(req, 1024 * 1024);
      let acks: unknown;
      try {
        acks = (JSON.parse(body.toString('utf8')) as { acks?: unknown }).acks;
      } catch {
        throw new HecError(400, 6, 'Invalid data format');
      }
      if (!Array.isArray(acks) || acks.length > 10_000) throw new HecError(400, 6, 'Invalid data format: acks must be an array');
      // Entries are committed before the answer, so every issued ack is complete.
      res.status(200).json({ acks: Object.fromEntries(acks.map((id) => [String(id), typeof id === 'number' && id >= 0 && id < this.ackSeq])) });
    } catch (err) {
      this.fail(res, err);
    }
  }

  private async handle(req: Request, res: Response, toEntries: (body: Buffer) => Promise<PendingEntry[]>): Promise<void> {
    try {
      await this.authenticate(req);
      const body = await readBody(req, this.config.maxIngestBatchBytes);
      if (!body.length) throw new HecError(400, 5, 'No data');
      await this.ingest.store(await toEntries(body));
      const channel = (req.headers['x-splunk-request-channel'] as string | undefined) ?? q(req, 'channel');
      res.status(200).json({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: channel ? this.ackSeq++ : '' });
    } catch (err) {
      this.fail(res, err);
    }
  }

  private async authenticate(req: Request): Promise<void> {
    const header = req.headers.authorization;
    let secret: string | undefined;
    if (header !== undefined) {
      const m = /^Splunk\s+(\S+)\s*$/i.exec(header);
      if (!m) throw new HecError(401, 3, 'Invalid authorization: use "Authorization: Splunk <token>"');
      secret = m[1];
    } else {
      secret = q(req, 'token');
    }
    if (!secret) throw new HecError(401, 2, 'Token is required');
    let ctx;
    try {
      ctx = await this.auth.fromToken(secret);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) throw new HecError(401, 4, `Invalid token: ${err.message}`);
      throw err;
    }
    if (!ctx.token?.capabilities.has('Ingest')) throw new HecError(403, 4, 'Invalid token: it lacks the Ingest capability');
  }

  /** `?tag=` (must be valid), else the sourcetype when it is a valid tag name, else `default`. */
  private tagFor(req: Request, sourcetype: unknown): string {
    const explicit = q(req, 'tag');
    if (explicit !== undefined) {
      const p = tagNameProblem(explicit);
      if (p) throw new HecError(400, 7, `Incorrect index: tag ${p}`);
      return explicit;
    }
    return typeof sourcetype === 'string' && !tagNameProblem(sourcetype) ? sourcetype : 'default';
  }

  private events(req: Request, body: Buffer): PendingEntry[] {
    const texts = splitConcatenatedJson(body.toString('utf8'));
    if (!texts.length) throw new HecError(400, 5, 'No data');
    this.ingest.checkCount(texts.length);
    const client = clientAddress(req);
    const nowUs = Date.now() * 1000;
    return texts.map((text, i) => {
      let ev: Record<string, unknown>;
      try {
        ev = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new HecError(400, 6, 'Invalid data format', i);
      }
      if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) throw new HecError(400, 6, 'Invalid data format', i);
      if (!('event' in ev) || ev.event === null) throw new HecError(400, 12, 'Event field is required', i);
      if (ev.event === '') throw new HecError(400, 13, 'Event field cannot be blank', i);
      let ts = nowUs;
      if (ev.time !== undefined && ev.time !== null && ev.time !== '') {
        const t = hecTime(ev.time);
        if (t === null) throw new HecError(400, 6, 'Invalid data format: bad time', i);
        ts = t;
      }
      let src = client;
      try {
        src = checkSource(ev.host) ?? client;
      } catch {
        // host names are not addresses: keep the caller's address
      }
      const data = Buffer.from(typeof ev.event === 'string' ? ev.event : JSON.stringify(ev.event), 'utf8');
      return { ts, tag: this.tagFor(req, ev.sourcetype ?? q(req, 'sourcetype')), src, data, evs: hecFields(ev.fields, i) };
    });
  }

  private fail(res: Response, err: unknown): void {
    let status: number;
    let text: string;
    let code: number;
    let invalid: number | undefined;
    if (err instanceof HecError) {
      ({ status, code } = err);
      text = err.message;
      invalid = err.invalidEvent;
    } else {
      const m = mapError(err);
      status = m.status;
      text = m.message;
      code = status === 413 ? 27 : status >= 500 ? (status === 503 ? 9 : 8) : 6;
    }
    if (res.headersSent) return void res.destroy();
    res.status(status).json({ text, code, ...(invalid !== undefined ? { 'invalid-event-number': invalid } : {}), Error: text });
  }
}
