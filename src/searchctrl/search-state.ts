/**
 * Pure state machine of a persistent search (contract "Search states"; product-notes §2.7).
 * A search is a set of flags; the `State` string is derived from them, and every trigger is a
 * row of `transition()` (exhaustive switch), which answers the next flags or an error. The flags
 * are the search's state and nothing else holds it: the lifecycle applies the outcome (cancel the
 * run, remove the search, move its results when `moving` turns on) and changes nothing itself.
 */

import { ErrorCode, messageOf } from '../common/errors/codes';

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
  /** The results are being moved to the saved area. */
  moving: boolean;
  /** Deleted (or the last client left): gone from the registry, nothing more happens to it. */
  removed: boolean;
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

/** Results should move to the saved area now (and are not on their way yet). */
export const shouldMoveToSaved = (f: SearchFlags): boolean => f.saveRequested && !f.saved && f.clients === 0 && f.finished && !f.moving && !f.removed;

export type Trigger =
  | { kind: 'background' }
  | { kind: 'save' }
  | { kind: 'stop' }
  | { kind: 'delete' }
  | { kind: 'attach' }
  | { kind: 'detach' }
  | { kind: 'finish' }
  /** the move to the saved area ended: its results are there and its row written, or it failed */
  | { kind: 'saved' }
  | { kind: 'saveFailed' };

/**
 * `deleted`: the search and its results go away (`next.removed` turned on). `cancel`: abort the
 * run. The move to the saved area starts when `next.moving` turns on.
 */
export type Outcome = { ok: true; next: SearchFlags; deleted: boolean; cancel: boolean } | { ok: false; status: 404 | 409; error: string; code: ErrorCode };

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
  if (f.removed) return ended(f, t);
  const out = step(f, t);
  // A search kept for saving moves its results once it is dormant; a failed move waits for the next trigger.
  if (out.ok && t.kind !== 'saveFailed' && shouldMoveToSaved(out.next)) return { ...out, next: { ...out.next, moving: true } };
  return out;
}

/** A removed search: the end of its run or of a move changes nothing; anything else finds no search. */
function ended(f: SearchFlags, t: Trigger): Outcome {
  if (t.kind === 'finish' || t.kind === 'saved' || t.kind === 'saveFailed') return ok(f);
  return { ok: false, status: 404, error: messageOf('SEARCH_NOT_FOUND'), code: 'SEARCH_NOT_FOUND' };
}

const notActive = (f: SearchFlags, action: string): Outcome => ({
  ok: false,
  status: 409,
  error: messageOf('SEARCH_NOT_ACTIVE', stateString(f), action),
  code: 'SEARCH_NOT_ACTIVE',
});

const removed = (f: SearchFlags, cancel: boolean): Outcome => ok({ ...f, clients: 0, removed: true }, { deleted: true, cancel });

function step(f: SearchFlags, t: Trigger): Outcome {
  switch (t.kind) {
    case 'background':
      // ACTIVE or BACKGROUNDED only: a dormant or saved search has nothing left to keep running.
      if (f.saved || (isDormant(f) && !f.backgrounded)) {
        return notActive(f, 'backgrounded');
      }
      return ok({ ...f, backgrounded: true });
    case 'save':
      // Any state; idempotent. The move happens once the search is dormant (see shouldMoveToSaved).
      return ok({ ...f, saveRequested: true });
    case 'stop':
      if (f.saved || isDormant(f)) return notActive(f, 'stopped');
      return ok({ ...f, finished: true }, { cancel: !f.finished });
    case 'delete':
      return removed(f, !f.finished);
    case 'attach':
      return ok({ ...f, clients: f.clients + 1 });
    case 'detach': {
      const next = { ...f, clients: Math.max(0, f.clients - 1) };
      if (next.clients === 0 && !isKept(next)) return removed(next, !f.finished);
      return ok(next);
    }
    case 'finish':
      return ok({ ...f, finished: true });
    case 'saved':
      return ok({ ...f, saved: true, saveRequested: false, finished: true, moving: false });
    case 'saveFailed':
      return ok({ ...f, moving: false });
    default:
      return assertUnreachable(t);
  }
}
