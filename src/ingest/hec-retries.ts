import { createHash } from 'node:crypto';

const TTL_MS = 10 * 60 * 1000;
const MAX_REMEMBERED = 10_000;

/**
 * Batches whose events before a bad one were stored, by owner and body digest. A HEC shipper
 * that resends the same batch after the 400 (syslog-ng does, by default, forever) must not
 * store those events again: the retry stores nothing and gets the same answer. In memory, for
 * ten minutes, at most 10,000 batches (oldest forgotten first); a restart forgets them.
 */
export class PartialBatches {
  private readonly stored = new Map<string, { count: number; at: number }>();

  key(uid: number, body: Buffer): string {
    return `${uid}:${createHash('sha256').update(body).digest('base64')}`;
  }

  /** How many leading events of this batch are already stored (0 when it is new). */
  alreadyStored(key: string, now = Date.now()): number {
    const hit = this.stored.get(key);
    if (!hit || now - hit.at > TTL_MS) return 0;
    return hit.count;
  }

  remember(key: string, count: number, now = Date.now()): void {
    this.stored.delete(key);
    this.stored.set(key, { count, at: now });
    if (this.stored.size > MAX_REMEMBERED) this.stored.delete(this.stored.keys().next().value as string);
  }
}
