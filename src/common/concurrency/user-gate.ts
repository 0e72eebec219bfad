import { Semaphore } from './semaphore';

/**
 * What a task admitted by a UserGate holds while it runs: its place among `overall`, or once
 * moved, one among the gate's `long` places instead. Its per-user place is kept throughout.
 */
export interface GatePlace {
  /**
   * Moves the task to the long lane: with a long place free it takes it and gives its overall
   * place back at once (to the first task waiting for one) and answers true. With the long lane
   * full it keeps its overall place, answers false and moves by itself when a long place frees
   * (first asked, first moved). Nothing waits either way. Later calls answer where it is.
   */
  moveToLong(): boolean;
  /** Holds a long place now. */
  readonly long: boolean;
}

/** A task's places: given back exactly once, when the task ends (or the overall one when it moves). */
class Place implements GatePlace {
  long = false;
  private ended = false;
  private giveLong?: () => void;

  constructor(
    private readonly lanes: Lanes,
    private overall: (() => void) | undefined,
  ) {}

  moveToLong(): boolean {
    if (this.ended) return false;
    if (this.long) return true;
    const long = this.lanes.long.tryTake();
    if (!long) {
      if (this.lanes.long.limit > 0) this.lanes.wanting.add(this);
      return false;
    }
    this.takeLong(long);
    return true;
  }

  /** Holds `long` instead of the overall place. */
  takeLong(long: () => void): void {
    this.lanes.wanting.delete(this);
    this.long = true;
    this.giveLong = long;
    const overall = this.overall;
    this.overall = undefined;
    overall?.();
  }

  /** The task ended (done, failed or cancelled): every place it holds goes back, once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.lanes.wanting.delete(this);
    this.overall?.();
    this.overall = undefined;
    const long = this.giveLong;
    this.giveLong = undefined;
    this.long = false;
    if (!long) return;
    long();
    // The freed long place goes to the first task that asked for one while the lane was full.
    for (const next of this.lanes.wanting) {
      const place = this.lanes.long.tryTake();
      if (!place) break;
      next.takeLong(place);
    }
  }
}

interface Lanes {
  long: Semaphore;
  /** Tasks that asked to move while the long lane was full, in order of asking. */
  wanting: Set<Place>;
}

/**
 * Work admitted per user before it starts: at most `perUser` tasks of one user and `overall` in
 * all run at once, and up to `queue` more wait (per user and in all, in arrival order); beyond,
 * `refused(scope)` is thrown (a 429 with Retry-After). Searches (SearchAdmission), compiling
 * queries, parsing lookup tables, renderer pages and archive imports are each admitted by one.
 * Work of no user (`uid` undefined) waits only for a place in all.
 *
 * With `long` > 0, a running task may move to a long lane of `long` places (GatePlace.moveToLong:
 * a search past SEARCH_DEMOTE_AFTER_MS), giving its overall place to the next task: at most
 * `overall` + `long` tasks run at once, still at most `perUser` of one user.
 */
export class UserGate {
  private readonly all: Semaphore;
  private readonly users = new Map<number, Semaphore>();
  private readonly lanes: Lanes;

  constructor(
    overall: number,
    private readonly perUser: number,
    private readonly queue: number,
    private readonly refused: (scope: 'user' | 'all') => Error,
    long = 0,
  ) {
    this.all = new Semaphore(overall, queue, () => refused('all'));
    this.lanes = { long: new Semaphore(long, 0, () => refused('all')), wanting: new Set() };
  }

  /** Throws what `run` would be refused with now, if anything. */
  check(uid: number | undefined): void {
    const refusal = (uid === undefined ? undefined : this.users.get(uid)?.refusal()) ?? this.all.refusal();
    if (refusal) throw refusal;
  }

  /**
   * Waits for a slot of `uid` (or throws the refusal) and answers the function that gives it
   * back, for work whose end is an event rather than a promise (a response streaming out).
   */
  acquire(uid: number): Promise<() => void> {
    return new Promise((granted, refused) => {
      this.run(uid, () => new Promise<void>((release) => granted(release))).catch(refused);
    });
  }

  run<T>(uid: number | undefined, task: (place: GatePlace) => Promise<T>): Promise<T> {
    const inAll = async () => {
      const place = new Place(this.lanes, await this.all.take());
      try {
        return await task(place);
      } finally {
        place.end();
      }
    };
    if (uid === undefined) return inAll();
    let mine = this.users.get(uid);
    if (!mine) {
      mine = new Semaphore(this.perUser, this.queue, () => this.refused('user'));
      this.users.set(uid, mine);
    }
    const gate = mine;
    return gate.run(inAll).finally(() => {
      if (gate.idle && this.users.get(uid) === gate) this.users.delete(uid);
    });
  }

  /** Places taken now: overall, long, and tasks waiting to move (for tests and diagnostics). */
  get load(): { overall: number; long: number; wanting: number } {
    return { overall: this.all.taken, long: this.lanes.long.taken, wanting: this.lanes.wanting.size };
  }
}
