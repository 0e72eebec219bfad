import * as fs from 'node:fs';
import * as path from 'node:path';
import * as semver from 'semver';

/**
 * Every installed package supports the oldest Node the project declares (issue 24, item 17): npm ci
 * printed 62 EBADENGINE warnings when ten packages, among them runtime dependencies, wanted Node 22
 * while package.json says >=20.19 and the service runs on 20. A package that moves past it has to be
 * pinned to its last release for that Node, or the project moves (README, Dockerfile and CI with it).
 */
const ROOT = path.resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

type LockEntry = { engines?: Record<string, string> | string[]; dev?: boolean };

/** The Node range a lock entry declares: `{node: ">=18"}`, or the old array form `["node >= 0.8"]`. */
export function nodeRange(engines: LockEntry['engines']): string | undefined {
  if (!engines) return undefined;
  if (Array.isArray(engines))
    return (
      engines
        .filter((e) => /^node\b/.test(e))
        .map((e) => e.replace(/^node\s*/, ''))
        .join(' ') || undefined
    );
  return engines.node;
}

/** Lock entries whose declared Node range leaves out `version`. */
export function unsupported(packages: Record<string, LockEntry>, version: string): string[] {
  const out: string[] = [];
  for (const [where, entry] of Object.entries(packages)) {
    const range = nodeRange(entry.engines);
    if (range && !semver.satisfies(version, range)) out.push(`${where.replace(/^.*node_modules\//, '')} wants node ${range}`);
  }
  return out;
}

describe('dependencies and the Node the project declares', () => {
  const declared = (readJson('package.json').engines as { node: string }).node;
  const oldest = semver.minVersion(declared)!.version;
  const packages = readJson('package-lock.json').packages as Record<string, LockEntry>;

  it('reads both forms of engines and finds a package that wants a newer Node', () => {
    expect(nodeRange({ node: '>=22' })).toBe('>=22');
    expect(nodeRange(['node >= 0.8', 'npm >= 1'])).toBe('>= 0.8');
    expect(nodeRange(['npm >= 1'])).toBeUndefined();
    expect(unsupported({ 'node_modules/new': { engines: { node: '>=22' } }, 'node_modules/old': { engines: { node: '>=18' } } }, '20.19.0')).toEqual(['new wants node >=22']);
  });

  it(`every package in the lock supports Node ${oldest}, the oldest of ${declared}`, () => {
    expect(Object.values(packages).filter((p) => nodeRange(p.engines)).length).toBeGreaterThan(100);
    expect(unsupported(packages, oldest)).toEqual([]);
  });

  it('the running Node is one the project declares', () => {
    expect(semver.satisfies(process.version, declared)).toBe(true);
  });
});
