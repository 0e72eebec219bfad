/** Wakes whoever waits for the next change of something (a render store): waiting instead of polling. */
export class ChangeSignal {
  private waiting?: { promise: Promise<void>; wake: () => void };

  /** Resolves at the next `notify()`. Take it before reading what it guards, so a change in between is not missed. */
  next(): Promise<void> {
    if (!this.waiting) {
      let wake!: () => void;
      const promise = new Promise<void>((r) => (wake = r));
      this.waiting = { promise, wake };
    }
    return this.waiting.promise;
  }

  notify(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.wake();
  }
}
