import { refusal } from '../common/errors/app-error';
import { UserGate } from '../common/concurrency/user-gate';

/** Seconds a refused search is told to wait before trying again. */
const RETRY_AFTER_S = 2;

/**
 * How many searches run at once: at most `perUser` of one user and `overall` in all; more wait
 * in arrival order (a bounded queue each), and beyond the queue the answer is 429 with
 * `Retry-After`. One user's searches then cannot take every scan worker, PostgreSQL connection
 * and core from the others. Searches that run in the background (persistent searches) call
 * `check` before they are registered, so the refusal is the launch's answer.
 *
 * A search demoted past SEARCH_DEMOTE_AFTER_MS (or started demoted) moves to the long lane of
 * `long` (SEARCH_LONG_CONCURRENCY) places when one is free (GatePlace.moveToLong): it gives its
 * overall place to the next search, so someone's long searches do not hold short searches back
 * until they time out. It keeps its per-user place; with the long lane full it keeps its overall
 * place and moves when a long place frees.
 */
export class SearchAdmission extends UserGate {
  constructor(overall: number, perUser: number, queue: number, long: number) {
    super(
      overall,
      perUser,
      queue,
      (scope) => (scope === 'user' ? refusal('SEARCHES_BUSY_FOR_USER', perUser, queue).retryAfter(RETRY_AFTER_S) : refusal('SEARCHES_BUSY').retryAfter(RETRY_AFTER_S)),
      long,
    );
  }
}
