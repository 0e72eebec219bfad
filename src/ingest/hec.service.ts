import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { HecAcksService } from './hec-acks.service';
import { HecSuccessDto } from './hec.dto';
import { readHecBatch } from './hec-batch';
import { HecError, hecMetadata, parseHecEvents, splitEvents } from './hec.parse';
import { PartialBatches } from './hec-retries';
import { tagNameProblem, toTagName } from './ingest.rules';
import { IngestService } from './ingest.service';

/** What a HEC request says besides its body. */
export interface HecRequestInfo {
  client: string;
  /** `X-Splunk-Request-Channel` or `?channel=`: the answer carries an ack ID */
  channel?: string;
  /** `?tag=`: the tag of every entry (must be valid) */
  tag?: string;
  /** `?sourcetype=`: the sourcetype of events that name none (and of `/raw` lines) */
  sourcetype?: string;
  /** `/raw`: `?host=`, `?source=`, `?index=` for every line, as Splunk takes them */
  metadata?: { host?: string; source?: string; index?: string };
}

/** Splunk HTTP Event Collector compatible ingest (product-notes §5.4). */
@Injectable()
export class HecService {
  private readonly logger = new Logger(HecService.name);
  private readonly sourcetypeTags: ReadonlyMap<string, string>;
  private readonly partial = new PartialBatches();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ingest: IngestService,
    private readonly acks: HecAcksService,
  ) {
    this.sourcetypeTags = checkedSourcetypeTags(config.hecSourcetypeTags);
  }

  /**
   * Concatenated JSON events. A bad event ends the batch as it does in Splunk: the events
   * before it are stored (one COPY, so all of them or none), nothing from it on, and the answer
   * is 400 with that event's HEC code and text plus `"invalid-event-number"` (its index from
   * 0), for example `{"text":"Invalid data format","code":6,"invalid-event-number":2}`. The
   * good part is committed before that answer goes out, and shippers do not retry a 400, so the
   * events before the bad one are never stored twice. Whole-request problems (credentials, an
   * invalid channel or `?tag=`, too large, too many events) store nothing.
   */
  async events(auth: AuthContext, info: HecRequestInfo, body: Buffer): Promise<HecSuccessDto> {
    const channel = this.acks.checkChannel(info.channel);
    const ctx = { nowUs: Date.now() * 1000, client: info.client, maxJsonDepth: this.config.maxJsonDepth, tagFor: this.tagRule(info) };
    // Good batches in the usual form are read from the bytes (the same entries); the rest, and every error, here.
    let items = readHecBatch(body, { ...ctx, maxEvents: this.config.maxIngestEntries });
    let failure: HecError | undefined;
    if (!items) {
      const split = splitEvents(body.toString('utf8'));
      this.ingest.checkCount(split.items.length);
      const parsed = parseHecEvents(split.items, ctx, split.depths);
      items = parsed.items;
      failure = parsed.failure ?? split.failure;
    }
    // An event whose time is outside the kept days is a bad event like any other (code 6).
    const outside = this.ingest.outsideTimeWindow(items);
    if (outside) {
      items = items.slice(0, outside.index);
      failure = new HecError(400, 6, `Invalid data format: ${outside.problem}`, outside.index);
    }
    if (!items.length && !failure) throw new HecError(400, 5, 'No data');
    if (!failure) {
      await this.ingest.store(items, auth.uid);
      return this.success(auth, channel);
    }
    // The events before the bad one are stored once, also when the shipper resends the batch.
    const key = this.partial.key(auth.uid, body);
    const stored = this.partial.alreadyStored(key);
    if (items.length > stored) {
      await this.ingest.store(items.slice(stored), auth.uid);
      this.partial.remember(key, items.length);
    }
    this.logger.warn(`HEC batch of user ${auth.uid}: event ${failure.invalidEvent ?? '?'} refused (${failure.message}); ${items.length} event(s) before it stored`);
    throw failure;
  }

  /** One entry per line, stamped with the leftmost timestamp found in it (else now). */
  async raw(auth: AuthContext, info: HecRequestInfo, body: Buffer): Promise<HecSuccessDto> {
    const channel = this.acks.checkChannel(info.channel);
    // `?host=` (an address is the source, a name an EV), `?source=` and `?index=` apply to every line.
    const meta = hecMetadata({ ...info.metadata }, info.client);
    const entries = this.ingest.linesToEntries(body, this.tagRule(info)(undefined), meta.src, true, false).map((e) => ({ ...e, evs: meta.evs }));
    if (!entries.length) throw new HecError(400, 5, 'No data');
    await this.ingest.store(entries, auth.uid);
    return this.success(auth, channel);
  }

  /**
   * The ack ID is issued after the entries' COPY has committed (they may live in another
   * indexer database than the ack table, so one transaction cannot hold both): an ID that
   * answers `true` always stands for stored entries. A crash between the two leaves the entries
   * without an ID; the shipper got no answer and resends (at least once, as with Splunk).
   */
  private async success(auth: AuthContext, channel: string | undefined): Promise<HecSuccessDto> {
    return { text: 'Success', code: 0, 'invalid-event-number': 0, ackID: channel === undefined ? '' : await this.acks.issue(auth, channel) };
  }

  /** `?tag=` for every entry; else the event's sourcetype (else `?sourcetype=`) as a tag. */
  private tagRule(info: HecRequestInfo): (sourcetype: unknown) => string {
    const explicit = info.tag;
    if (explicit === undefined) {
      // Events of a batch mostly share their sourcetype (or name none): the last answer is kept.
      let last: unknown = null;
      let lastTag = '';
      return (sourcetype) => {
        if (sourcetype !== last || (typeof sourcetype !== 'string' && sourcetype !== undefined)) {
          lastTag = this.tagForSourcetype(sourcetype ?? info.sourcetype);
          last = sourcetype;
        }
        return lastTag;
      };
    }
    const problem = tagNameProblem(explicit);
    if (problem) throw new HecError(400, 7, `Incorrect index: tag ${problem}`);
    return () => explicit;
  }

  /** The tag HEC_SOURCETYPE_TAGS gives the sourcetype, else the sourcetype made a valid tag, else `default`. */
  private tagForSourcetype(sourcetype: unknown): string {
    if (typeof sourcetype !== 'string' || !sourcetype.length) return 'default';
    return this.sourcetypeTags.get(sourcetype) ?? toTagName(sourcetype);
  }
}

/** The configured sourcetype -> tag map; an invalid tag stops the service at start-up. */
function checkedSourcetypeTags(pairs: Record<string, string>): ReadonlyMap<string, string> {
  for (const [sourcetype, tag] of Object.entries(pairs)) {
    const problem = tagNameProblem(tag);
    if (problem) throw new Error(`HEC_SOURCETYPE_TAGS: the tag for sourcetype "${sourcetype}" ${problem}`);
  }
  return new Map(Object.entries(pairs));
}
