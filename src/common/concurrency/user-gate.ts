import { Semaphore } from './semaphore';

/**
 * Work admitted per user before it starts: at most `perUser` tasks of one user and `overall` in
 * all run at once, and up to `queue` more wait (per user and in all, in arrival order); beyond,
 * `refused(scope)` is thrown (a 429 with Retry-After). Searches (SearchAdmission), compiling
 * queries, parsing lookup tables, renderer pages and archive imports are each admitted by one.
 * Work of no user (`uid` undefined) waits only for a place in all.
 */
export class UserGate {
  private readonly all: Semaphore;
  private readonly users = new Map<number, Semaphore>();

  constructor(
    overall: number,
    private readonly perUser: number,
    private readonly queue: number,
    private readonly refused: (scope: 'user' | 'all') => Error,
  ) {
    this.all = new Semaphore(overall, queue, () => refused('all'));
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

  run<T>(uid: number | undefined, task: () => Promise<T>): Promise<T> {
    if (uid === undefined) return this.all.run(task);
    let mine = this.users.get(uid);
    if (!mine) {
      mine = new Semaphore(this.perUser, this.queue, () => this.refused('user'));
      this.users.set(uid, mine);
    }
    const gate = mine;
    return gate
      .run(() => this.all.run(task))
      .finally(() => {
        if (gate.idle && this.users.get(uid) === gate) this.users.delete(uid);
      });
  }
}
