/**
 * Aggregations over very many groups (issues 13 and 16): the partial/merge path and the renderers
 * answer exactly up to the bounds (no `push(...rows)` stack overflow, nothing held per entry that
 * need not be), and end with a LimitError naming the module one key past them. The merge of a
 * million groups also runs in a real search worker, under its 512 MiB heap.
 * A million entries a case take a minute or more of CPU, so this runs with the e2e specs
 * (`npm run test:e2e`, `npm test`), not with the unit specs of `npm run test:unit` (issue 25).
 */
import { startScanWorker } from '../../src/indexer/worker-host';
import type { MergeJob, WorkerMessage } from '../../src/indexer/scan.protocol';
import { LimitError } from '../../src/query/limits';
import { compileQuery, PartialState } from '../../src/query/planner';
import { RenderResult } from '../../src/query/renderers/renderer';
import { Entry } from '../../src/query/types';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const RANGE = { start: new Date(T0 / 1000), end: new Date(T0 / 1000 + 3600_000), tagNames: { 1: 'x' } };
const MILLION = 1_000_000;
const NO_DATA = Buffer.alloc(0);

type Field = 'k' | 'n' | 'v';
const VALUE: Record<Field, (i: number) => string | number> = { k: (i) => `key${i}`, n: (i) => i, v: (i) => i % 7 };

/** Entries of tag x with `k` = key<i>, `n` = i and `v` = i % 7 (or some of them), already extracted (as a worker's kv would). */
function keyBatch(from: number, to: number, fields: Field[] = ['k', 'n', 'v']): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i < to; i++) out.push({ ts: T0 + i, tag: 1, src: '', data: NO_DATA, evs: new Map(fields.map((f) => [f, VALUE[f](i)])) });
  return out;
}

/** Two simulated indexers with half the keys each; partial states JSON round-tripped. */
function partials(query: string, keys: number, fields?: Field[]): PartialState[] {
  const compiled = compileQuery(query, RANGE);
  const out: PartialState[] = [];
  for (const [from, to] of [
    [0, Math.floor(keys / 2)],
    [Math.floor(keys / 2), keys],
  ]) {
    const runner = compiled.createDistributed();
    for (let i = from; i < to; i += 5000) runner.push(keyBatch(i, Math.min(to, i + 5000), fields));
    out.push(JSON.parse(JSON.stringify(runner.finish())) as PartialState);
  }
  return out;
}

function runOverIndexers(query: string, keys: number, fields?: Field[]): RenderResult {
  const compiled = compileQuery(query, RANGE);
  const collapser = compiled.createCollapser();
  if (!compiled.streaming) {
    for (const p of partials(query, keys, fields)) collapser.addPartial(p);
    return collapser.finish();
  }
  const runner = compiled.createDistributed();
  for (let i = 0; i < keys; i += 5000) collapser.addEntries(runner.push(keyBatch(i, Math.min(keys, i + 5000))));
  return collapser.finish();
}

function table(r: RenderResult) {
  if (r.kind !== 'table') throw new Error(`kind ${r.kind}`);
  return r.Entries;
}

const SLOW = 180_000;

describe('a million distinct keys', () => {
  it(
    'count by merges and renders a table of every key, in a search worker under its 512 MiB heap',
    async () => {
      const query = 'tag=x count by k | table k count';
      const job: MergeJob = {
        query,
        start: RANGE.start.toISOString(),
        end: RANGE.end.toISOString(),
        now: RANGE.end.toISOString(),
        tagNames: [[1, 'x']],
        partials: partials(query, MILLION),
        retainEntries: true,
      };
      const w = startScanWorker();
      try {
        const reply = await new Promise<WorkerMessage>((resolve, reject) => {
          w.on('message', (m: WorkerMessage) => (m.type === 'merged' || m.type === 'error') && resolve(m));
          w.on('error', reject);
          w.postMessage({ type: 'merge', id: 1, job });
        });
        if (reply.type !== 'merged') throw new Error(`merge failed: ${JSON.stringify(reply)}`);
        const t = table(reply.result);
        expect(reply.result.EntryCount).toBe(MILLION);
        expect(t.Columns).toEqual(['k', 'count']);
        expect(t.Rows).toHaveLength(MILLION);
        // Keys are not numbers: ordered as text.
        expect(t.Rows[0].Row).toEqual(['key0', '1']);
        expect(t.Rows[1].Row).toEqual(['key1', '1']);
        expect(t.Rows[2].Row).toEqual(['key10', '1']);
        expect(t.Rows[MILLION - 1].Row).toEqual(['key999999', '1']);
        expect(new Set(t.Rows.map((r) => r.Row[0])).size).toBe(MILLION);
      } finally {
        await w.terminate();
      }
    },
    SLOW,
  );

  it(
    'stats by answers every group exactly',
    () => {
      const t = table(runOverIndexers('tag=x stats count sum(v) max(n) by n | table n count sum max', MILLION));
      expect(t.Rows).toHaveLength(MILLION);
      // Numeric keys are ordered as numbers.
      expect(t.Rows[0].Row).toEqual(['0', '1', '0', '0']);
      expect(t.Rows[123_456].Row).toEqual(['123456', '1', String(123_456 % 7), '123456']);
      expect(t.Rows[MILLION - 1].Row).toEqual(['999999', '1', String(999_999 % 7), '999999']);
      expect(t.Rows.every((r, i) => r.Row[0] === String(i) && r.Row[2] === String(i % 7))).toBe(true);
    },
    SLOW,
  );

  it(
    'unique keeps one entry per key',
    () => {
      const t = table(runOverIndexers('tag=x unique k | table k', MILLION, ['k']));
      expect(t.Rows).toHaveLength(MILLION);
      expect(new Set(t.Rows.map((r) => r.Row[0])).size).toBe(MILLION);
      // Newest first.
      expect(t.Rows[0].Row).toEqual(['key999999']);
    },
    SLOW,
  );

  it(
    'sort orders every entry',
    () => {
      const t = table(runOverIndexers('tag=x sort by n desc | table n', MILLION, ['n']));
      expect(t.Rows).toHaveLength(MILLION);
      expect(t.Rows.every((r, i) => r.Row[0] === String(MILLION - 1 - i))).toBe(true);
    },
    SLOW,
  );

  it(
    'entries too big to hold a million of end unique with an error naming the memory bound',
    () => {
      // Three EVs each: about 360 bytes an entry by the estimate, more than SEARCH_HOLD_MAX_MB (256) for a million.
      expect(() => runOverIndexers('tag=x unique k | table k', MILLION)).toThrow(new LimitError('unique: more than 256 MiB of entries held (SEARCH_HOLD_MAX_MB)'));
    },
    SLOW,
  );

  it(
    'a streamed table keeps every row',
    () => {
      const t = table(runOverIndexers('tag=x table k n', MILLION));
      expect(t.Rows).toHaveLength(MILLION);
      expect(t.Rows[0].Row).toEqual(['key999999', '999999']);
      expect(t.Rows[MILLION - 1].Row).toEqual(['key0', '0']);
    },
    SLOW,
  );

  it(
    'one key past the default bound ends the search with an error naming the module and the limit',
    () => {
      expect(() => runOverIndexers('tag=x count by k', MILLION + 1)).toThrow(new LimitError('count: more than 1000000 distinct groups (-maxtracked)'));
    },
    SLOW,
  );

  it.each([
    ['text', 'tag=x count by k | text'],
    ['chart', 'tag=x count by k | chart count'],
    ['sort', 'tag=x count by k | sort by k asc | table k count'],
    ['limit', 'tag=x count by k | limit 200000 | table k count'],
  ])('%s after 200,000 groups', (_name, query) => {
    expect(runOverIndexers(query, 200_000).EntryCount).toBe(200_000);
  });
});
