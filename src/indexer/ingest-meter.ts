import { Injectable } from '@nestjs/common';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Ring buffer of per-slot counters (minutes or hours), newest slot last when read. */
class Tail {
  private readonly counts: number[];
  private readonly bytes: number[];
  private slot = -1;

  constructor(
    private readonly size: number,
    private readonly width: number,
  ) {
    this.counts = new Array(size).fill(0);
    this.bytes = new Array(size).fill(0);
  }

  private advance(now: number): number {
    const s = Math.floor(now / this.width);
    if (this.slot === -1) this.slot = s;
    for (let k = this.slot + 1; k <= Math.min(s, this.slot + this.size); k++) {
      this.counts[k % this.size] = 0;
      this.bytes[k % this.size] = 0;
    }
    if (s - this.slot > this.size) this.slot = s;
    else this.slot = Math.max(this.slot, s);
    return s % this.size;
  }

  add(now: number, count: number, bytes: number): void {
    const i = this.advance(now);
    this.counts[i] += count;
    this.bytes[i] += bytes;
  }

  read(now: number): { counts: number[]; bytes: number[] } {
    const i = this.advance(now);
    const order = Array.from({ length: this.size }, (_, k) => (i + 1 + k) % this.size);
    return { counts: order.map((k) => this.counts[k]), bytes: order.map((k) => this.bytes[k]) };
  }
}

export interface IngestSnapshot {
  EntriesPerSecond: number;
  BytesPerSecond: number;
  TotalCount: number;
  TotalSize: number;
  LastDayCount: number;
  LastDaySize: number;
  EntriesHourTail: number[];
  EntriesMinuteTail: number[];
  BytesHourTail: number[];
  BytesMinuteTail: number[];
}

/** Ingest counters per indexer since start: totals, last-minute rate, minute and hour tails. */
@Injectable()
export class IngestMeter {
  private readonly perIndexer = new Map<string, { total: number; size: number; minutes: Tail; hours: Tail }>();

  record(indexer: string, count: number, bytes: number, now = Date.now()): void {
    let m = this.perIndexer.get(indexer);
    if (!m) this.perIndexer.set(indexer, (m = { total: 0, size: 0, minutes: new Tail(60, MINUTE), hours: new Tail(24, HOUR) }));
    m.total += count;
    m.size += bytes;
    m.minutes.add(now, count, bytes);
    m.hours.add(now, count, bytes);
  }

  snapshot(indexer: string, now = Date.now()): IngestSnapshot {
    const m = this.perIndexer.get(indexer) ?? { total: 0, size: 0, minutes: new Tail(60, MINUTE), hours: new Tail(24, HOUR) };
    const min = m.minutes.read(now);
    const hr = m.hours.read(now);
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    // Rate over the last full minute plus the current partial one.
    const elapsed = MINUTE + (now % MINUTE);
    return {
      EntriesPerSecond: ((min.counts[58] + min.counts[59]) * 1000) / elapsed,
      BytesPerSecond: ((min.bytes[58] + min.bytes[59]) * 1000) / elapsed,
      TotalCount: m.total,
      TotalSize: m.size,
      LastDayCount: sum(hr.counts),
      LastDaySize: sum(hr.bytes),
      EntriesHourTail: hr.counts,
      EntriesMinuteTail: min.counts,
      BytesHourTail: hr.bytes,
      BytesMinuteTail: min.bytes,
    };
  }
}
