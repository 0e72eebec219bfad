import { SearchFlags, shouldMoveToSaved, stateString, transition, Trigger } from './search-state';

const base: SearchFlags = { clients: 1, finished: false, backgrounded: false, saveRequested: false, saved: false, moving: false, removed: false };
const f = (o: Partial<SearchFlags>): SearchFlags => ({ ...base, ...o });

describe('search state strings', () => {
  it.each<[Partial<SearchFlags>, string]>([
    [{}, 'ACTIVE'],
    [{ finished: true }, 'ACTIVE'],
    [{ backgrounded: true }, 'ACTIVE/BACKGROUNDED'],
    [{ clients: 0, backgrounded: true }, 'ACTIVE/BACKGROUNDED'],
    [{ saveRequested: true }, 'ACTIVE/SAVING'],
    [{ clients: 0, saveRequested: true, backgrounded: true }, 'ACTIVE/SAVING/BACKGROUNDED'],
    [{ clients: 0, finished: true, backgrounded: true }, 'DORMANT'],
    [{ clients: 0, finished: true, saveRequested: true }, 'DORMANT/SAVING'],
    [{ clients: 0, finished: true, saved: true }, 'DORMANT/SAVED'],
    [{ clients: 2, finished: true, saved: true }, 'SAVED/ATTACHED'],
  ])('%j -> %s', (flags, s) => expect(stateString(f(flags))).toBe(s));
});

describe('transitions (contract table)', () => {
  const run = (flags: Partial<SearchFlags>, kind: Trigger['kind']) => transition(f(flags), { kind } as Trigger);

  it('background from ACTIVE and from BACKGROUNDED', () => {
    expect(run({}, 'background')).toEqual({ ok: true, next: f({ backgrounded: true }), deleted: false, cancel: false });
    expect(run({ backgrounded: true, clients: 0 }, 'background')).toMatchObject({ ok: true, next: f({ backgrounded: true, clients: 0 }) });
  });

  it('background of a saved or dormant-unbackgrounded search is an error', () => {
    expect(run({ saved: true, clients: 0, finished: true }, 'background')).toMatchObject({ ok: false, status: 409 });
    expect(run({ saveRequested: true, clients: 0, finished: true }, 'background')).toMatchObject({ ok: false, status: 409 });
  });

  it.each<Partial<SearchFlags>>([{}, { finished: true }, { clients: 0, backgrounded: true }, { saved: true, finished: true }, { clients: 0, finished: true, backgrounded: true }])(
    'save from any state %j marks it saved',
    (flags) => {
      const out = run(flags, 'save');
      expect(out).toMatchObject({ ok: true, deleted: false, cancel: false });
      if (out.ok) expect(out.next.saveRequested || out.next.saved).toBe(true);
    },
  );

  it('stop of a running ACTIVE search finishes it and cancels the run', () => {
    expect(run({}, 'stop')).toEqual({ ok: true, next: f({ finished: true }), deleted: false, cancel: true });
    expect(run({ backgrounded: true, clients: 0 }, 'stop')).toMatchObject({ ok: true, cancel: true });
  });

  it('stop of SAVED or DORMANT is an error and changes nothing', () => {
    for (const flags of [
      { saved: true, clients: 0, finished: true },
      { saved: true, clients: 1, finished: true },
      { clients: 0, finished: true, backgrounded: true },
    ]) {
      const before = f(flags);
      const out = transition(before, { kind: 'stop' });
      expect(out).toEqual({ ok: false, status: 409, code: 'SEARCH_NOT_ACTIVE', error: expect.stringContaining('only an ACTIVE search can be stopped') });
      expect(before).toEqual(f(flags));
    }
  });

  it.each<Partial<SearchFlags>>([{}, { finished: true, clients: 0, saved: true }, { backgrounded: true, clients: 0 }])('delete from any state %j', (flags) => {
    expect(run(flags, 'delete')).toMatchObject({ ok: true, deleted: true, cancel: !f(flags).finished });
  });

  it('the last client leaving deletes a search that is neither backgrounded nor saved', () => {
    expect(run({}, 'detach')).toMatchObject({ ok: true, deleted: true, cancel: true });
    expect(run({ clients: 2 }, 'detach')).toMatchObject({ ok: true, deleted: false, next: f({ clients: 1 }) });
    expect(run({ backgrounded: true }, 'detach')).toMatchObject({ ok: true, deleted: false });
    expect(run({ saveRequested: true, finished: true }, 'detach')).toMatchObject({ ok: true, deleted: false });
  });

  it('attach to a dormant saved search shows SAVED/ATTACHED; the move to saved waits for dormancy', () => {
    const out = run({ clients: 0, saved: true, finished: true }, 'attach');
    expect(out.ok && stateString(out.next)).toBe('SAVED/ATTACHED');
    expect(shouldMoveToSaved(f({ saveRequested: true, finished: true }))).toBe(false);
    expect(shouldMoveToSaved(f({ saveRequested: true, finished: false, clients: 0 }))).toBe(false);
    expect(shouldMoveToSaved(f({ saveRequested: true, finished: true, clients: 0 }))).toBe(true);
    const done = run({ saveRequested: true, finished: true, clients: 0 }, 'saved');
    expect(done.ok && stateString(done.next)).toBe('DORMANT/SAVED');
    const fin = run({ clients: 0, backgrounded: true }, 'finish');
    expect(fin.ok && stateString(fin.next)).toBe('DORMANT');
  });
});

describe('moving and removal are states of the table', () => {
  const run = (flags: Partial<SearchFlags>, kind: Trigger['kind']) => transition(f(flags), { kind } as Trigger);

  it('the move to the saved area starts once, when a search kept for saving becomes dormant', () => {
    expect(run({ saveRequested: true }, 'detach')).toEqual({ ok: true, next: f({ clients: 0, saveRequested: true }), deleted: false, cancel: false });
    expect(run({ saveRequested: true, clients: 0 }, 'finish')).toEqual({
      ok: true,
      next: f({ clients: 0, saveRequested: true, finished: true, moving: true }),
      deleted: false,
      cancel: false,
    });
    expect(run({ finished: true, clients: 0, backgrounded: true }, 'save')).toEqual({
      ok: true,
      next: f({ clients: 0, finished: true, backgrounded: true, saveRequested: true, moving: true }),
      deleted: false,
      cancel: false,
    });
    // Already on its way: another trigger does not start a second move.
    expect(run({ saveRequested: true, clients: 0, finished: true, moving: true }, 'save')).toEqual({
      ok: true,
      next: f({ saveRequested: true, clients: 0, finished: true, moving: true }),
      deleted: false,
      cancel: false,
    });
  });

  it('the end of the move: saved, or moving again only at a later trigger after a failure', () => {
    const moving = { saveRequested: true, clients: 0, finished: true, moving: true };
    expect(run(moving, 'saved')).toEqual({ ok: true, next: f({ clients: 0, finished: true, saved: true }), deleted: false, cancel: false });
    expect(run(moving, 'saveFailed')).toEqual({ ok: true, next: f({ saveRequested: true, clients: 0, finished: true }), deleted: false, cancel: false });
    expect(run({ saveRequested: true, clients: 0, finished: true }, 'save')).toMatchObject({ ok: true, next: { moving: true } });
  });

  it('delete and the last detach remove the search; a removed search answers 404 and ignores the end of its run', () => {
    expect(run({ finished: true }, 'delete')).toEqual({ ok: true, next: f({ clients: 0, finished: true, removed: true }), deleted: true, cancel: false });
    expect(run({}, 'detach')).toEqual({ ok: true, next: f({ clients: 0, removed: true }), deleted: true, cancel: true });
    const gone = { clients: 0, removed: true };
    for (const kind of ['background', 'save', 'stop', 'delete', 'attach', 'detach'] as const) {
      expect(run(gone, kind)).toEqual({ ok: false, status: 404, code: 'SEARCH_NOT_FOUND', error: 'Search not found' });
    }
    for (const kind of ['finish', 'saved', 'saveFailed'] as const) {
      expect(run(gone, kind)).toEqual({ ok: true, next: f(gone), deleted: false, cancel: false });
    }
  });
});
