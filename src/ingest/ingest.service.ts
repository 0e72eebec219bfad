import { Inject, Injectable } from '@nestjs/common';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { jsonDeeperThan } from '../common/validation/json-depth';
import { dayOfMicros } from '../indexer/indexer.schema';
import { IndexerService } from '../indexer/indexer.service';
import { SerializedEV } from '../query';
import { checkSource, checkTagName, checkTimestamp, decodeBase64, decodeEnumerated, splitLines } from './ingest.rules';
import { readJsonBatch } from './json-batch';
import { timestampInLine } from './timestamps';

/** An entry validated at the web server, its tag still a name. */
export interface PendingEntry {
  ts: number;
  tag: string;
  src: string;
  data: Buffer;
  evs: Array<[string, SerializedEV]> | null;
}

export interface LinesOptions {
  tag: string;
  source?: string;
  noParseTimestamp: boolean;
  assumeLocalTimezone: boolean;
}

/** Ingest rules: validate everything first, then store the batch in one transaction (all or nothing). */
@Injectable()
export class IngestService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly indexer: IndexerService,
  ) {}

  checkCount(n: number): void {
    if (n > this.config.maxIngestEntries) throw refusal('TOO_MANY_ENTRIES', this.config.maxIngestEntries);
  }

  /**
   * Where the first entry whose time is outside the kept days is, and why (older than
   * `RETENTION_DAYS`, or more than `INGEST_MAX_FUTURE_DAYS` ahead); undefined when all are inside.
   */
  outsideTimeWindow(entries: PendingEntry[]): { index: number; problem: string } | undefined {
    const kept = this.indexer.keptDays();
    for (let i = 0; i < entries.length; i++) {
      const day = dayOfMicros(entries[i].ts);
      if (day >= kept.first && day <= kept.last) continue;
      const when = new Date(entries[i].ts / 1000).toISOString();
      const problem =
        day < kept.first
          ? `time ${when} is older than the retention of ${this.config.retentionDays} days (RETENTION_DAYS)`
          : `time ${when} is more than ${this.config.ingestMaxFutureDays} days ahead (INGEST_MAX_FUTURE_DAYS)`;
      return { index: i, problem };
    }
    return undefined;
  }

  /** Stores validated entries for `creator` (a UID); resolves after commit with their count and data size. */
  async store(entries: PendingEntry[], creator: number): Promise<{ Count: number; Size: number }> {
    this.checkCount(entries.length);
    const outside = this.outsideTimeWindow(entries);
    if (outside) throw refusal('ENTRY_OUTSIDE_TIME_WINDOW', outside.index, outside.problem);
    const ids = await this.indexer.tagIds(
      entries.map((e) => e.tag),
      creator,
    );
    await this.indexer.store(entries.map((e) => ({ ts: e.ts, tag: ids.get(e.tag)!, src: e.src, data: e.data, evs: e.evs })));
    return { Count: entries.length, Size: entries.reduce((a, e) => a + e.data.length, 0) };
  }

  /** `PUT /api/ingest/json`: `[{TS, Tag, SRC?, Data, Enumerated?}]`. */
  async ingestJson(body: Buffer, client: string, creator: number): Promise<{ Count: number; Size: number }> {
    return this.store(this.jsonEntries(body, client), creator);
  }

  /**
   * The entries of a JSON ingest body: read straight from its bytes when it has the usual form and
   * every entry is valid (readJsonBatch: the same entries), else by the generic path below, which
   * gives every error.
   */
  jsonEntries(body: Buffer, client: string): PendingEntry[] {
    return readJsonBatch(body, { client, maxDepth: this.config.maxJsonDepth, maxEntries: this.config.maxIngestEntries }) ?? this.parseJsonEntries(body, client);
  }

  /** The generic path: depth check, JSON.parse, then the ingest rules entry by entry. */
  parseJsonEntries(body: Buffer, client: string): PendingEntry[] {
    if (jsonDeeperThan(body, this.config.maxJsonDepth)) throw refusal('JSON_TOO_DEEP', this.config.maxJsonDepth);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw refusal('MALFORMED_JSON');
    }
    if (!Array.isArray(parsed)) throw refusal('ENTRIES_NOT_AN_ARRAY');
    this.checkCount(parsed.length);
    return parsed.map((raw: unknown, i): PendingEntry => {
      const w = `entry ${i}`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw refusal('NOT_AN_OBJECT', w);
      const e = raw as Record<string, unknown>;
      return {
        ts: checkTimestamp(e.TS, `${w}: TS`),
        tag: checkTagName(e.Tag, `${w}: Tag`),
        src: checkSource(e.SRC, `${w}: SRC`) ?? client,
        data: decodeBase64(e.Data, `${w}: Data`),
        evs: decodeEnumerated(e.Enumerated, w),
      };
    });
  }

  /** One entry per line, timestamps from the lines where recognisable (else now). */
  linesToEntries(buf: Buffer, tag: string, src: string, parseTs: boolean, assumeLocal: boolean): PendingEntry[] {
    const lines = splitLines(buf);
    this.checkCount(lines.length);
    const now = new Date();
    const nowUs = now.getTime() * 1000;
    return lines.map((data) => ({
      ts: (parseTs ? timestampInLine(data.toString('utf8', 0, Math.min(data.length, 512)), assumeLocal, now) : null) ?? nowUs,
      tag,
      src,
      data,
      evs: null,
    }));
  }

  async ingestLines(file: Buffer, opts: LinesOptions, client: string, creator: number): Promise<{ Count: number; Size: number; Tags: string[] }> {
    const tag = checkTagName(opts.tag, 'tag');
    const src = checkSource(opts.source, 'source') ?? client;
    const res = await this.store(this.linesToEntries(file, tag, src, !opts.noParseTimestamp, opts.assumeLocalTimezone), creator);
    return { ...res, Tags: [tag] };
  }
}
