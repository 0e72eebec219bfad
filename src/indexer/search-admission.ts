import { tooManyRequests } from '../common/errors/app-error';
import { Semaphore } from '../common/concurrency/semaphore';

/** Seconds a refused search is told to wait before trying again. */
const RETRY_AFTER_S = 2;

/**
 * How many searches run at once: at most `perUser` of one user and `overall` in all; more wait
 * in arrival order (a bounded queue each), and beyond the queue the answer is 429 with
 * `Retry-After`. One user's searches then cannot take every scan worker, PostgreSQL connection
 * and core from the others.
 */
export class SearchAdmission {
  private readonly all: Semaphore;
  private readonly users = new Map<number, Semaphore>();

  constructor(
    overall: number,
    private readonly perUser: number,
    private readonly queue: number,
  ) {
    this.all = new Semaphore(overall, queue, () => tooManyRequests('Too many searches are running; try again shortly', RETRY_AFTER_S));
  }

  /**
   * Throws the 429 that `run` would give now. Searches that run in the background (persistent
   * searches) call it before they are registered, so the refusal is the launch's answer.
   */
  check(owner: number | undefined): void {
    const refusal = (owner === undefined ? undefined : this.users.get(owner)?.refusal()) ?? this.all.refusal();
    if (refusal) throw refusal;
  }

  run<T>(owner: number | undefined, task: () => Promise<T>): Promise<T> {
    if (owner === undefined) return this.all.run(task);
    const mine = this.userSemaphore(owner);
    return mine
      .run(() => this.all.run(task))
      .finally(() => {
        if (mine.idle) this.users.delete(owner);
      });
  }

  private userSemaphore(uid: number): Semaphore {
    let s = this.users.get(uid);
    if (!s) {
      s = new Semaphore(this.perUser, this.queue, () => tooManyRequests(`You have ${this.perUser} searches running and ${this.queue} waiting; try again shortly`, RETRY_AFTER_S));
      this.users.set(uid, s);
    }
    return s;
  }
}
