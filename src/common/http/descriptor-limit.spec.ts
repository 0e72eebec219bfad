import { execFileSync } from 'node:child_process';
import { defaultMaxConnections, maxConnectionsFor, openFileLimit, refusalMargin } from './descriptor-limit';

describe('the open-files limit and the default MAX_CONNECTIONS', () => {
  it("reads the process's limit as a shell started by it sees it", () => {
    expect(openFileLimit()).toBe(Number(execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()));
  });

  it('leaves a quarter of the descriptors to everything but client connections', () => {
    expect([20_000, 1024, 400, 10].map((n) => maxConnectionsFor(n))).toEqual([14_117, 704, 236, 16]);
    // held connections and refusals still closing together stay within three quarters of the descriptors
    for (const n of [20_000, 1024, 400, 200]) expect(maxConnectionsFor(n) + refusalMargin(maxConnectionsFor(n))).toBeLessThanOrEqual(Math.floor(n * 0.75));
    // Unknown or unlimited: a bound all the same.
    expect([undefined, 1_048_577].map((n) => maxConnectionsFor(n))).toEqual([16_384, 16_384]);
    expect(defaultMaxConnections()).toBe(maxConnectionsFor(openFileLimit()));
  });
});
