/**
 * Tells a list moving too fast to read (a fling, a dragged scrollbar thumb) from one being read
 * (wheel steps, arrow keys, Page Down). While it flies, the list shows placeholders and fetches
 * nothing: pages of rows nobody can see would cost a request and a decode each, every frame.
 * Once it has been slow for `settleMs`, `onSettled` asks for a render, which then fetches.
 */
/** moves further apart than this are not one motion */
const PAUSE_MS = 100;

export class ScrollMotion {
  private lastIndex?: number;
  private lastAt = 0;
  private fastUntil = 0;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly onSettled: () => void,
    /** faster than this (rows per millisecond; 1 is 16 rows a frame) is flying */
    private readonly fastRowsPerMs = 1,
    private readonly settleMs = 120,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Notes the first row on screen; true while the list flies (and for `settleMs` after). */
  update(index: number): boolean {
    const t = this.now();
    // A move after a pause (End, a click on the scrollbar track) is one jump: fetch at once.
    const dt = t - this.lastAt;
    if (this.lastIndex !== undefined && index !== this.lastIndex && dt < PAUSE_MS) {
      if (Math.abs(index - this.lastIndex) / Math.max(1, dt) > this.fastRowsPerMs) {
        this.fastUntil = t + this.settleMs;
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.onSettled();
        }, this.settleMs + 5);
      }
    }
    this.lastIndex = index;
    this.lastAt = t;
    return t < this.fastUntil;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
