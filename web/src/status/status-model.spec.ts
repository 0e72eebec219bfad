import { describe, expect, it } from '@jest/globals';
import { applyFrame, backoffSeconds, closeReason, components, indexerRows, StatusData } from './status-model';

const IX = 'localhost:5432/indexer';

describe('status page model', () => {
  it('applies the stats websocket frames: ping data is {States}, unknown frames change nothing', () => {
    let s: StatusData = {};
    s = applyFrame(s, { type: 'ping', data: { States: { webserver: 'OK', [IX]: 'OK' } } }, 1);
    s = applyFrame(s, { type: 'sysDesc', data: { webserver: { CPUCount: 2 } } }, 2);
    s = applyFrame(s, { Resp: 'ACK' }, 3);
    s = applyFrame(s, { type: 'other', data: {} }, 4);
    s = applyFrame(s, 'junk', 5);
    expect(s).toEqual({ ping: { webserver: 'OK', [IX]: 'OK' }, sysDesc: { webserver: { CPUCount: 2 } }, updated: 2 });
  });

  it('sums each indexer over its wells and partitions, with its state and ingest rate', () => {
    const rows = indexerRows({
      ping: { webserver: 'OK', [IX]: 'OK', 'far:5432/ix': 'Disconnected' },
      idxStats: {
        [IX]: {
          UUID: 'u',
          IndexStats: [
            {
              Name: 'default',
              Stats: [
                { ID: '2026-11-25', Data: 1000, Entries: 10 },
                { ID: '2026-11-26', Data: 24, Entries: 5, Estimated: true },
              ],
            },
          ],
        },
        'far:5432/ix': { IndexStats: [], Error: 'indexer is not reachable' },
      },
      igstStats: { [IX]: { EntriesPerSecond: 1.5, BytesPerSecond: 100, TotalCount: 15 } },
    });
    expect(rows).toEqual([
      {
        name: 'far:5432/ix',
        state: 'Disconnected',
        wells: 0,
        partitions: 0,
        entries: 0,
        estimated: false,
        bytes: 0,
        oldest: undefined,
        newest: undefined,
        entriesPerSecond: undefined,
        bytesPerSecond: undefined,
        ingested: undefined,
        error: 'indexer is not reachable',
      },
      {
        name: IX,
        state: 'OK',
        wells: 1,
        partitions: 2,
        entries: 15,
        estimated: true,
        bytes: 1024,
        oldest: '2026-11-25',
        newest: '2026-11-26',
        entriesPerSecond: 1.5,
        bytesPerSecond: 100,
        ingested: 15,
        error: undefined,
      },
    ]);
  });

  it('lists the web server first among the components', () => {
    expect(components({ 'b:1': 'OK', webserver: 'OK', 'a:1': 'Disconnected' }).map((c) => c.name)).toEqual(['webserver', 'a:1', 'b:1']);
    expect(components(undefined)).toEqual([]);
  });

  it('explains closed sockets and retries only when it can help', () => {
    expect(closeReason(4401, 'session ended')).toEqual({ message: 'Your session has ended.', retry: false });
    expect(closeReason(4403, 'Forbidden').retry).toBe(false);
    expect(closeReason(1006, '').retry).toBe(true);
    expect(closeReason(1001, 'server shutting down').message).toBe('The service is restarting.');
    expect([0, 1, 2, 3, 4, 5, 9].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16, 30, 30]);
  });
});
