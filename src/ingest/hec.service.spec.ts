import { AppConfig } from '../config/app-config';
import { HecAcksService } from './hec-acks.service';
import { HecError } from './hec.parse';
import { HecService } from './hec.service';
import { IngestService, PendingEntry } from './ingest.service';

/** HecService with an ingest that records what it is asked to store. */
function service() {
  const stored: PendingEntry[][] = [];
  const ingest = {
    checkCount: () => undefined,
    outsideTimeWindow: () => undefined,
    store: async (entries: PendingEntry[]) => {
      stored.push(entries);
      return { Count: entries.length, Size: 0 };
    },
  } as unknown as IngestService;
  const acks = { checkChannel: (c: string | undefined) => c } as unknown as HecAcksService;
  const config = { maxJsonDepth: 8, maxIngestEntries: 100, hecSourcetypeTags: { 'aws:cloudtrail': 'cloudtrail' } } as unknown as AppConfig;
  return { hec: new HecService(config, ingest, acks), stored };
}

const auth = { uid: 1 } as Parameters<HecService['events']>[0];
const body = (...events: unknown[]) => Buffer.from(events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n'));

describe('HecService.events', () => {
  const events = [
    { event: 'a', sourcetype: 'aws:cloudtrail' },
    { event: 'b', sourcetype: 'aws:cloudtrail' },
    { event: 'c' },
    { event: 'd' },
    { event: 'e', sourcetype: 'my:type' },
    { event: 'f', sourcetype: null },
    { event: 'g', sourcetype: '' },
    { event: 'h', sourcetype: 'aws:cloudtrail' },
  ].map((e, i) => ({ ...e, time: 1_700_000_000 + i }));
  const tags = (sourcetype?: string) => ['cloudtrail', 'cloudtrail', sourcetype ?? 'default', sourcetype ?? 'default', 'my_type', sourcetype ?? 'default', 'default', 'cloudtrail'];

  it('gives every event the tag of its sourcetype (else ?sourcetype=), on the fast path and the generic one', async () => {
    for (const sourcetype of [undefined, 'fallback:st']) {
      const expected = tags(sourcetype === undefined ? undefined : 'fallback_st');
      const fast = service();
      await fast.hec.events(auth, { client: '10.0.0.1', sourcetype }, body(...events));
      expect(fast.stored[0].map((e) => e.tag)).toEqual(expected);
      // A bad event at the end: the generic path stores the events before it.
      const generic = service();
      await expect(generic.hec.events(auth, { client: '10.0.0.1', sourcetype }, body(...events, { time: 1 }))).rejects.toMatchObject({ hecCode: 12, invalidEvent: 8 });
      expect(generic.stored[0].map((e) => e.tag)).toEqual(expected);
      expect(generic.stored[0].map((e) => ({ ...e, data: e.data.toString() }))).toEqual(fast.stored[0].map((e) => ({ ...e, data: e.data.toString() })));
    }
  });

  it('refuses a bad ?tag= before reading anything, and takes a good one for every event', async () => {
    const bad = service();
    await expect(bad.hec.events(auth, { client: '10.0.0.1', tag: 'a.b' }, body(...events))).rejects.toBeInstanceOf(HecError);
    expect(bad.stored).toEqual([]);
    const good = service();
    await good.hec.events(auth, { client: '10.0.0.1', tag: 'fixed' }, body(...events));
    expect(good.stored[0].map((e) => e.tag)).toEqual(Array(events.length).fill('fixed'));
  });
});
