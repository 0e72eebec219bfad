import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RenderStore } from './render-store';
import { LiveSearch } from './search.model';
import { toSearchInfo, toSearchSummary, ZERO_TIME } from './searchctrl.views';

describe('search views', () => {
  let dir: string;
  let s: LiveSearch;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'views-'));
    s = {
      id: '12345678901',
      uid: 3,
      gids: [7, 8],
      global: false,
      userQuery: 'tag=a',
      effectiveQuery: 'tag=a | text',
      start: new Date('2024-01-01T00:00:00Z'),
      end: new Date('2024-01-02T00:00:00Z'),
      renderModule: 'text',
      renderCmd: 'text',
      downloadFormats: ['text', 'json', 'csv', 'archive'],
      collapsingIndex: 1,
      queryTimeSpecified: false,
      noHistory: false,
      preview: false,
      name: '',
      metadata: undefined,
      saveMetadata: undefined,
      launchInfo: undefined,
      flags: { clients: 2, finished: false, backgrounded: true, saveRequested: false, saved: false, moving: false, removed: false },
      started: new Date('2024-05-01T00:00:00Z'),
      progress: { entriesScanned: 0, bytesScanned: 0, finished: false },
      store: await RenderStore.create(path.join(dir, 's'), 1 << 20),
    };
  });
  afterEach(async () => {
    await s.store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the zero timestamp while running and the real one after', () => {
    expect(toSearchInfo(s).Finished).toBe(ZERO_TIME);
    expect(ZERO_TIME).toBe('0001-01-01T00:00:00Z');
    s.finishedAt = new Date('2024-05-01T00:00:01Z');
    expect(toSearchInfo(s).Finished).toBe('2024-05-01T00:00:01.000Z');
  });

  it('says TimeZoomDisabled as POST /api/parse does: by the query, not by the renderer', () => {
    const zoom = (effectiveQuery: string, renderModule: string) => toSearchInfo({ ...s, effectiveQuery, renderModule }).TimeZoomDisabled;
    expect(zoom('tag=a text', 'text')).toBe(false);
    expect(zoom('tag=a stats count | text', 'text')).toBe(true);
    expect(zoom('tag=a json x | table x', 'table')).toBe(false);
    expect(zoom('tag=a json x | table -nt x', 'table')).toBe(true);
    expect(zoom('tag=a json x | stats count over 1m | chart count', 'chart')).toBe(false);
    expect(zoom('tag=a json x | count by x | gauge count', 'gauge')).toBe(true);
    expect(zoom('tag=a MakeRainbows | count', 'text')).toBe(false); // does not parse
  });

  it('maps a summary with StoredData, state and the first group as GID', () => {
    expect(toSearchSummary(s)).toEqual({
      ID: '12345678901',
      UID: 3,
      GID: 7,
      GIDs: [7, 8],
      Global: false,
      State: 'ACTIVE/BACKGROUNDED',
      AttachedClients: 2,
      StoredData: 0,
      UserQuery: 'tag=a',
      EffectiveQuery: 'tag=a | text',
      StartRange: '2024-01-01T00:00:00.000Z',
      EndRange: '2024-01-02T00:00:00.000Z',
      NoHistory: false,
      Import: { Imported: false, Time: ZERO_TIME, BatchName: '', BatchInfo: '' },
      LaunchInfo: null,
    });
  });
});
