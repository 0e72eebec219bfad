import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../api/client';
import { StartSearchRequest } from '../api/types';
import { SearchSession, SessionState } from '../search/search-session';
import { DashboardRunner, RunRequest } from './dashboard-runner';

/** A search the test ends by hand; `left` once the runner has disposed it. */
class FakeSession {
  left = false;
  private finish!: (s: SessionState) => void;
  private readonly done = new Promise<SessionState>((resolve) => (this.finish = resolve));
  constructor(readonly query: string) {}
  ended(): Promise<SessionState> {
    return this.done;
  }
  end(): void {
    this.finish({ phase: 'finished', info: {} as SessionState['info'], launchedAt: 0 });
  }
  dispose(): Promise<void> {
    this.left = true;
    return Promise.resolve();
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const req = (index: number, query = `q${index}`): RunRequest => ({ index, search: { query }, range: { kind: 'relative', preset: '1h' } });

describe('the dashboard runner', () => {
  let launched: FakeSession[];
  beforeEach(() => {
    launched = [];
    jest.spyOn(SearchSession, 'launch').mockImplementation(async (r) => {
      const s = new FakeSession(r.SearchString);
      launched.push(s);
      return s as unknown as SearchSession;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const shown = (runner: DashboardRunner, i: number) => runner.getSnapshot().get(i)?.session as unknown as FakeSession | undefined;

  it('shows a first search while it runs; a refresh swaps in only once the new one has ended', async () => {
    const runner = new DashboardRunner('7');
    runner.run([req(0)]);
    await flush();
    expect(launched).toHaveLength(1);
    expect(shown(runner, 0)).toBe(launched[0]);
    launched[0].end();
    await flush();
    expect(runner.busy).toBe(false);

    expect(runner.refresh([req(0)])).toBe(true);
    await flush();
    expect(runner.getSnapshot().get(0)?.refreshing).toBe(true);
    expect(shown(runner, 0)).toBe(launched[0]);
    launched[1].end();
    await flush();
    expect([shown(runner, 0), runner.getSnapshot().get(0)?.refreshing, launched[0].left]).toEqual([launched[1], false, true]);
    runner.dispose();
    expect(launched[1].left).toBe(true);
  });

  it('skips live updates while a search is still running: searches never pile up', async () => {
    const runner = new DashboardRunner('7');
    runner.run([req(0), req(1)]);
    await flush();
    launched[0].end();
    await flush();
    // Search 1 takes longer than the update interval: the ticks launch nothing.
    for (let tick = 0; tick < 5; tick++) expect(runner.refresh([req(0), req(1)])).toBe(false);
    await flush();
    expect(launched).toHaveLength(2);
    launched[1].end();
    await flush();
    expect(runner.refresh([req(0), req(1)])).toBe(true);
    await flush();
    expect(launched).toHaveLength(4);
    launched[2].end();
    launched[3].end();
    await flush();
    expect([shown(runner, 0), shown(runner, 1), runner.busy]).toEqual([launched[2], launched[3], false]);
    runner.dispose();
  });

  it('a new range cancels the launch it supersedes at once, and never leaves the session a tile shows', async () => {
    const runner = new DashboardRunner('7');
    runner.run([req(0, 'first')]);
    await flush();
    const first = launched[0];
    expect(shown(runner, 0)).toBe(first);
    // Still running, and shown: a new range launches again, the tile keeps showing the first.
    runner.run([req(0, 'second')]);
    await flush();
    expect([shown(runner, 0), first.left]).toEqual([first, false]);
    // Superseded again before it ended: the second is left at once.
    runner.run([req(0, 'third')]);
    await flush();
    const [, second, third] = launched;
    expect([second.left, third.left, shown(runner, 0)]).toEqual([true, false, first]);
    // The first ending changes nothing; the third ending takes its place.
    first.end();
    second.end();
    await flush();
    expect([shown(runner, 0), runner.getSnapshot().get(0)?.refreshing]).toEqual([first, true]);
    third.end();
    await flush();
    expect([shown(runner, 0), first.left, runner.getSnapshot().get(0)?.refreshing, runner.busy]).toEqual([third, true, false, false]);
    runner.dispose();
  });

  it('a launch answered after it was superseded is left at once; a search no longer wanted is left', async () => {
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    const slow = jest.spyOn(SearchSession, 'launch').mockImplementationOnce(async (r) => {
      await gate;
      const s = new FakeSession(r.SearchString);
      launched.push(s);
      return s as unknown as SearchSession;
    });
    const runner = new DashboardRunner('7');
    runner.run([req(0, 'slow')]);
    await flush();
    runner.run([req(0, 'fast'), req(1)]);
    await flush();
    answer();
    await flush();
    expect(slow).toHaveBeenCalledTimes(3);
    const late = launched.find((s) => s.query === 'slow')!;
    expect(late.left).toBe(true);
    expect(shown(runner, 0)?.query).toBe('fast');
    runner.run([req(0, 'fast')]);
    await flush();
    expect(launched.find((s) => s.query === 'q1')!.left).toBe(true);
    expect(runner.getSnapshot().has(1)).toBe(false);
    runner.dispose();
    expect(launched.every((s) => s.left)).toBe(true);
  });

  it('a search that cannot start says why and ends the refresh', async () => {
    const runner = new DashboardRunner('7');
    runner.run([{ index: 0, search: { alias: 'nothing' }, range: { kind: 'relative', preset: '1h' } }]);
    await flush();
    expect(runner.getSnapshot().get(0)).toEqual({ refreshing: false, error: 'This search has no query.' });
    expect(runner.busy).toBe(false);
    runner.dispose();
  });

  describe("someone else's query with side effects", () => {
    const WRITES = 'tag=web count by status | table -save hosts status count';
    const EFFECT = { Module: 'table -save', Effect: 'writes the table to the resource "hosts", replacing its contents' };
    const REFUSAL = `This query was written by someone else and has side effects (table -save ${EFFECT.Effect}); run it only after confirming (ConfirmSideEffects)`;
    const realFetch = global.fetch;
    let requests: StartSearchRequest[];

    beforeEach(() => {
      requests = [];
      // The service: refuses WRITES unless confirmed; /api/parse names its side effects.
      jest.spyOn(SearchSession, 'launch').mockImplementation(async (r) => {
        requests.push(r);
        if (r.SearchString === WRITES && !r.ConfirmSideEffects) throw new ApiError(403, REFUSAL);
        const s = new FakeSession(r.SearchString);
        launched.push(s);
        return s as unknown as SearchSession;
      });
      global.fetch = jest.fn(async () => new Response(JSON.stringify({ GoodQuery: true, SideEffects: [EFFECT] }), { status: 200 })) as typeof fetch;
    });
    afterEach(() => {
      global.fetch = realFetch;
    });

    it("says every launch is this dashboard's", async () => {
      const runner = new DashboardRunner('7');
      runner.run([req(0)]);
      await flush();
      expect(requests[0]).toEqual(expect.objectContaining({ LaunchInfo: { method: 'dashboard', reference: '7' }, NoHistory: true }));
      expect(requests[0].ConfirmSideEffects).toBeUndefined();
      runner.dispose();
    });

    it('waits for the viewer, then runs it confirmed, also on later updates, while others run as usual', async () => {
      const runner = new DashboardRunner('7');
      runner.run([req(0, WRITES), req(1)]);
      await flush();
      await flush();
      expect(runner.getSnapshot().get(0)).toEqual({ refreshing: false, consent: { query: WRITES, effects: [EFFECT], refusal: REFUSAL } });
      expect(launched.map((s) => s.query)).toEqual(['q1']);
      launched[0].end();
      await flush();
      expect(runner.busy).toBe(false);

      // A live update leaves it waiting: nothing is launched for it.
      expect(runner.refresh([req(0, WRITES), req(1)])).toBe(true);
      await flush();
      expect(requests.filter((r) => r.SearchString === WRITES)).toHaveLength(1);
      launched[1].end();
      await flush();

      runner.confirm(0);
      await flush();
      expect(requests.at(-1)).toEqual(expect.objectContaining({ SearchString: WRITES, ConfirmSideEffects: true, LaunchInfo: { method: 'dashboard', reference: '7' } }));
      expect(runner.getSnapshot().get(0)?.consent).toBeUndefined();
      expect(shown(runner, 0)?.query).toBe(WRITES);
      launched[2].end();
      await flush();

      // Remembered: the next update runs it confirmed at once.
      expect(runner.refresh([req(0, WRITES), req(1)])).toBe(true);
      await flush();
      expect(requests.filter((r) => r.SearchString === WRITES).map((r) => r.ConfirmSideEffects)).toEqual([undefined, true, true]);
      runner.dispose();
    });

    it('asks again in a new page (a new runner)', async () => {
      const first = new DashboardRunner('7');
      first.run([req(0, WRITES)]);
      await flush();
      await flush();
      first.confirm(0);
      await flush();
      first.dispose();
      const second = new DashboardRunner('7');
      second.run([req(0, WRITES)]);
      await flush();
      await flush();
      expect(second.getSnapshot().get(0)?.consent?.query).toBe(WRITES);
      second.dispose();
    });
  });

  describe('scheduled search references', () => {
    const realFetch = global.fetch;
    const GUID = '5b0c3f3e-8a4e-4d4e-9f43-4b7f4cdb0a11';
    let attached: string[];
    let answer: object;
    beforeEach(() => {
      attached = [];
      jest.spyOn(SearchSession, 'attach').mockImplementation(async (id) => {
        attached.push(id);
        const s = new FakeSession(id);
        launched.push(s);
        return s as unknown as SearchSession;
      });
      global.fetch = jest.fn(async (url: string | URL | Request) => {
        expect(String(url)).toContain(`/api/scheduledsearches/${GUID}`);
        return new Response(JSON.stringify(answer), { status: 200 });
      }) as typeof fetch;
    });
    afterEach(() => {
      global.fetch = realFetch;
    });
    const ref = (): RunRequest => ({ index: 0, search: { reference: { id: GUID, type: 'scheduledSearch' } }, range: { kind: 'relative', preset: '1h' } });

    it("shows the latest run's saved results, attached and never launched again", async () => {
      answer = { Name: 'nightly', LastSearchIDs: ['123456'], LastError: '' };
      const runner = new DashboardRunner('7');
      runner.run([ref()]);
      await flush();
      expect(attached).toEqual(['123456']);
      expect(SearchSession.launch).not.toHaveBeenCalled();
      expect(runner.getSnapshot().get(0)?.query).toBe('Results of the scheduled search “nightly”');
      runner.dispose();
    });

    it('says so when the scheduled search has not run yet', async () => {
      answer = { Name: 'nightly', LastSearchIDs: [], LastError: 'boom' };
      const runner = new DashboardRunner('7');
      runner.run([ref()]);
      await flush();
      await flush();
      expect(runner.getSnapshot().get(0)?.error).toBe('The scheduled search “nightly” has no results yet (last error: boom).');
      expect(attached).toEqual([]);
      runner.dispose();
    });
  });
});
