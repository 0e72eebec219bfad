/**
 * "The event loop was not blocked", measured: the longest event-loop delay (perf_hooks) and the
 * latencies of a probe request repeated while some hostile work runs. Tests assert generous
 * bounds and print the figures; strict goals belong to the bench.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopReport {
  /** Longest event-loop delay seen while the work ran, in ms. */
  maxDelayMs: number;
  /** Each probe's latency, in ms, in the order they ran. */
  probesMs: number[];
  /** Largest resident set size sampled while the work ran, in MiB. */
  maxRssMiB: number;
}

/**
 * Runs `work` while repeating `probe` (when given) one request after another and watching the
 * event loop; answers what `work` returned and the measurements.
 */
export async function measure<T>(work: () => Promise<T>, probe?: () => Promise<unknown>): Promise<{ result: T; report: LoopReport }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let maxRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 50);
  const probesMs: number[] = [];
  let done = false;
  const probing = (async () => {
    while (probe && !done) {
      const t = performance.now();
      await probe();
      probesMs.push(Math.round(performance.now() - t));
    }
  })();
  try {
    const result = await work();
    done = true;
    await probing;
    return { result, report: { maxDelayMs: Math.round(h.max / 1e6), probesMs, maxRssMiB: Math.round(maxRss / 1048576) } };
  } finally {
    done = true;
    clearInterval(sampler);
    h.disable();
  }
}

/** A report on one line, for the test's output (the figures the README quotes). */
export const describeReport = (what: string, r: LoopReport): string =>
  `${what}: event-loop delay max ${r.maxDelayMs} ms; probes n=${r.probesMs.length} max ${Math.max(0, ...r.probesMs)} ms median ${
    [...r.probesMs].sort((a, b) => a - b)[Math.floor(r.probesMs.length / 2)] ?? 0
  } ms; RSS max ${r.maxRssMiB} MiB`;
