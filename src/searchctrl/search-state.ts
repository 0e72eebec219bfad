/**
 * Pure state machine of a persistent search (contract "Search states"; product-notes §2.7).
 * A search is a set of flags; the `State` string is derived from them, and every trigger is a
 * row of `transition()` (exhaustive switch), which answers the next flags or an error.
 */

export interface SearchFlags {
  /** Sessions attached right now. */
  clients: number;
  /** The run has ended (completed, stopped, failed). */
  finished: boolean;
  /** Marked to persist without an attached session. */
  backgrounded: boolean;
  /** Marked saved (PATCH save). */
  saveRequested: boolean;
  /** Results moved to the saved area and metadata persisted. */
  saved: boolean;
}

export type StateName = 'ACTIVE' | 'BACKGROUNDED' | 'SAVING' | 'SAVED' | 'DORMANT' | 'ATTACHED';

/** The state names a search holds, in the product's order (e.g. ACTIVE/SAVING/BACKGROUNDED). */
export function stateNames(f: SearchFlags): StateName[] {
  if (f.saved) return f.clients > 0 ? ['SAVED', 'ATTACHED'] : ['DORMANT', 'SAVED'];
  const dormant = f.clients === 0 && f.finished;
  const out: StateName[] = [dormant ? 'DORMANT' : 'ACTIVE'];
  if (f.saveRequested) out.push('SAVING');
  if (f.backgrounded && !dormant) out.push('BACKGROUNDED');
  return out;
}

export function stateString(f: SearchFlags): string {
  return stateNames(f).join('/');
}

export const isDormant = (f: SearchFlags): boolean => f.clients === 0 && (f.finished || f.saved);

/** Kept without clients: the last client leaving does not delete it. */
export const isKept = (f: SearchFlags): boolean => f.backgrounded || f.saveRequested || f.saved;

/** Results should move to the saved area now. */
export const shouldMoveToSaved = (f: SearchFlags): boolean => f.saveRequested && !f.saved && f.clients === 0 && f.finished;

export type Trigger =
  | { kind: 'background' }
  | { kind: 'save' }
  | { kind: 'stop' }
  | { kind: 'delete' }
  | { kind: 'attach' }
  | { kind: 'detach' }
  | { kind: 'finish' }
  | { kind: 'saved' };

export type Outcome =
  /** `deleted`: the search and its results go away. `cancel`: abort the run. */
  | { ok: true; next: SearchFlags; deleted: boolean; cancel: boolean }
  | { ok: false; status: 400 | 409; error: string };

function assertUnreachable(x: never): never {
  throw new Error(`unhandled trigger ${JSON.stringify(x)}`);
}

const ok = (next: SearchFlags, extra: { deleted?: boolean; cancel?: boolean } = {}): Outcome => ({
  ok: true,
  next,
  deleted: extra.deleted ?? false,
  cancel: extra.cancel ?? false,
});

/** The table of allowed moves. Access rights are checked by the caller (searchctrl.access.ts). */
export function transition(f: SearchFlags, t: Trigger): Outcome {
  switch (t.kind) {
    case 'background':
      // ACTIVE or BACKGROUNDED only: a dormant or saved search has nothing left to keep running.
      if (f.saved || (isDormant(f) && !f.backgrounded)) {
        return { ok: false, status: 409, error: `Search is ${stateString(f)}: only an ACTIVE search can be backgrounded` };
      }
      return ok({ ...f, backgrounded: true });
    case 'save':
      // Any state; idempotent. The move happens once the search is dormant (see shouldMoveToSaved).
      return ok({ ...f, saveRequested: true });
    case 'stop':
      if (f.saved || isDormant(f)) return { ok: false, status: 409, error: `Search is ${stateString(f)}: only an ACTIVE search can be stopped` };
      return ok({ ...f, finished: true }, { cancel: !f.finished });
    case 'delete':
      return ok({ ...f, clients: 0 }, { deleted: true, cancel: !f.finished });
    case 'attach':
      return ok({ ...f, clients: f.clients + 1 });
    case 'detach': {
      const next = { ...f, clients: Math.max(0, f.clients - 1) };
      if (next.clients === 0 && !isKept(next)) return ok(next, { deleted: true, cancel: !f.finished });
      return ok(next);
    }
    case 'finish':
      return ok({ ...f, finished: true });
    case 'saved':
      return ok({ ...f, saved: true, saveRequested: false, finished: true });
    default:
      return assertUnreachable(t);
  }
}
