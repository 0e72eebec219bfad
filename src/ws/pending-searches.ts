import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AnnouncedSearch } from './search-start';

/**
 * Heap a compiled query holds, estimated from its length: measured 27-245 bytes per character
 * over 65,000-character pipelines of single modules (`eval x=1` the most), so 256, plus the
 * plan's fixed part. Cheap and never below what was measured; a walk of the compiled objects
 * missed what their closures hold and cost up to 80 ms.
 */
export const PLAN_BYTES_PER_CHAR = 256;
const PLAN_BYTES_FIXED = 16 * 1024;
export const estimatePlanBytes = (queryChars: number): number => PLAN_BYTES_FIXED + PLAN_BYTES_PER_CHAR * queryChars;

const MiB = 1024 * 1024;
const mib = (n: number) => `${Math.round((n / MiB) * 10) / 10} MiB`;

/** What one user's sockets hold in announced, not yet acknowledged searches (or are compiling now). */
@Injectable()
export class PendingSearchBudget {
  private readonly users = new Map<number, { count: number; bytes: number }>();

  constructor(@Inject(APP_CONFIG) readonly config: AppConfig) {}

  /** Takes one search of `bytes` for `uid`, or answers why not. */
  take(uid: number, bytes: number): string | undefined {
    const u = this.users.get(uid) ?? { count: 0, bytes: 0 };
    const { wsPendingSearchesPerUser: count, wsPendingSearchBytesPerUser: most } = this.config;
    if (u.count >= count) return `Too many searches waiting for their acknowledgement: at most ${count} per user`;
    if (u.bytes + bytes > most) return `Searches waiting for their acknowledgement would hold too much memory: at most ${mib(most)} per user`;
    this.users.set(uid, { count: u.count + 1, bytes: u.bytes + bytes });
    return undefined;
  }

  /** Changes the bytes of a search already taken; refuses to grow past the bound. */
  resize(uid: number, from: number, to: number): string | undefined {
    const u = this.users.get(uid);
    if (!u) return undefined;
    const most = this.config.wsPendingSearchBytesPerUser;
    if (to > from && u.bytes - from + to > most) return `Searches waiting for their acknowledgement would hold too much memory: at most ${mib(most)} per user`;
    u.bytes += to - from;
    return undefined;
  }

  give(uid: number, bytes: number): void {
    const u = this.users.get(uid);
    if (!u) return;
    u.count--;
    u.bytes -= bytes;
    if (u.count <= 0) this.users.delete(uid);
  }
}

/** A pending search's place in the budgets, from admission (before it compiles) to its ACK. */
export interface PendingTicket {
  uid: number;
  bytes: number;
  announced?: AnnouncedSearch;
  timer?: NodeJS.Timeout;
  /** given back (acknowledged, expired, cancelled, or the socket closed) */
  released?: boolean;
}

/**
 * One socket's announced searches waiting for the client's ACK (product-notes §2.5), bounded per
 * socket and, through PendingSearchBudget, per user: in number (WS_PENDING_SEARCHES_PER_*), in
 * estimated bytes (WS_PENDING_SEARCH_BYTES_PER_*), and in time (WS_PENDING_SEARCH_TIMEOUT_MS:
 * then `onExpired` is told and the search is dropped). A search is counted from before it
 * compiles, so compilations in progress are bounded too.
 */
export class PendingSearches {
  private readonly held = new Map<string, PendingTicket>();
  private compiling?: PendingTicket;
  private bytes = 0;

  constructor(
    private readonly budget: PendingSearchBudget,
    private readonly onExpired: (subproto: string) => void,
  ) {}

  get size(): number {
    return this.held.size + (this.compiling ? 1 : 0);
  }

  /** Admits a search of `queryChars` characters to compile, or answers why not. */
  admit(uid: number, queryChars: number): PendingTicket | string {
    const { wsPendingSearchesPerSocket: count, wsPendingSearchBytesPerSocket: most } = this.budget.config;
    const bytes = estimatePlanBytes(queryChars);
    if (this.size >= count) return `Too many searches waiting for their acknowledgement: at most ${count} per socket`;
    if (this.bytes + bytes > most) return `Searches waiting for their acknowledgement would hold too much memory: at most ${mib(most)} per socket`;
    const refused = this.budget.take(uid, bytes);
    if (refused) return refused;
    this.bytes += bytes;
    this.compiling = { uid, bytes };
    return this.compiling;
  }

  /** Keeps a compiled search until its ACK, counted at its compiled query's length; or answers why not (the ticket is then given back). */
  hold(ticket: PendingTicket, subproto: string, announced: AnnouncedSearch, queryChars: number): string | undefined {
    if (ticket.released) return 'The socket closed';
    const bytes = Math.max(ticket.bytes, estimatePlanBytes(queryChars));
    const most = this.budget.config.wsPendingSearchBytesPerSocket;
    const refused =
      this.bytes - ticket.bytes + bytes > most
        ? `Searches waiting for their acknowledgement would hold too much memory: at most ${mib(most)} per socket`
        : this.budget.resize(ticket.uid, ticket.bytes, bytes);
    if (refused) {
      this.cancel(ticket);
      return refused;
    }
    this.compiling = undefined;
    this.bytes += bytes - ticket.bytes;
    ticket.bytes = bytes;
    ticket.announced = announced;
    ticket.timer = setTimeout(() => {
      if (this.take(subproto)) this.onExpired(subproto);
    }, this.budget.config.wsPendingSearchTimeoutMs);
    ticket.timer.unref();
    this.held.set(subproto, ticket);
    return undefined;
  }

  /** Gives back an admitted search that did not compile. */
  cancel(ticket: PendingTicket): void {
    if (this.compiling === ticket) this.compiling = undefined;
    this.release(ticket);
  }

  /** The search waiting on `subproto`, no longer pending (acknowledged, or expired). */
  take(subproto: string): AnnouncedSearch | undefined {
    const ticket = this.held.get(subproto);
    if (!ticket) return undefined;
    this.held.delete(subproto);
    this.release(ticket);
    return ticket.announced;
  }

  /** The socket closed: every pending search is dropped. */
  clear(): void {
    for (const subproto of [...this.held.keys()]) this.take(subproto);
    if (this.compiling) this.cancel(this.compiling);
  }

  private release(ticket: PendingTicket): void {
    if (ticket.released) return;
    ticket.released = true;
    clearTimeout(ticket.timer);
    this.bytes -= ticket.bytes;
    this.budget.give(ticket.uid, ticket.bytes);
  }
}
