import { randomUUID } from 'node:crypto';
import { LiveSearch } from './search.model';

/**
 * The sessions attached to each search (session ID -> last ping, ms since epoch). Only
 * SearchLifecycle holds one: a session opens and closes with the search's attach and detach
 * triggers, so the state table's client count is the number of open sessions.
 */
export class SearchSessions {
  private readonly bySearch = new WeakMap<LiveSearch, Map<string, number>>();

  open(s: LiveSearch): string {
    const sid = randomUUID();
    let m = this.bySearch.get(s);
    if (!m) this.bySearch.set(s, (m = new Map()));
    m.set(sid, Date.now());
    return sid;
  }

  /** A ping; false for a session the search does not have. */
  touch(s: LiveSearch, sid: string): boolean {
    const m = this.bySearch.get(s);
    if (!m?.has(sid)) return false;
    m.set(sid, Date.now());
    return true;
  }

  /** False for a session the search does not have. */
  close(s: LiveSearch, sid: string): boolean {
    return this.bySearch.get(s)?.delete(sid) ?? false;
  }

  closeAll(s: LiveSearch): void {
    this.bySearch.delete(s);
  }

  /** Sessions last pinged before `deadline`. */
  stale(s: LiveSearch, deadline: number): string[] {
    return [...(this.bySearch.get(s) ?? [])].filter(([, last]) => last < deadline).map(([sid]) => sid);
  }
}
