/**
 * `lookup [-s] [-v] -r <resource> <EV> <match column> <extract column> [as name] ...`: enrichment
 * from a CSV resource (or `@name`, an inner query's table). Each operation matches one EV (or a
 * `[A B]` list) against one column (or a `[X Y]` list) and extracts one column, or several in
 * `( C as c D )`. Without `as` the EV is named after the column. `-s`: drop entries for which an
 * operation finds no row; `-v`: keep only those (and extract nothing). The first matching row wins.
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { TableIndex } from '../lookup-index';
import { decodeCell, LookupTable } from '../lookup-table';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';

interface Extract {
  column: string;
  name: string;
}

interface Operation {
  evs: string[];
  match: string[];
  extract: Extract[];
}

/** One operation bound to a table: the index of its match columns, and the extracted columns. */
interface BoundOperation {
  index: TableIndex;
  extract: number[];
}

const word = (t: Token | undefined): boolean => !!t && (t.kind === 'word' || t.kind === 'string');

/** A single name, or a `[A B]` list (the lexer leaves the brackets on the first and last words). */
function readList(r: ArgReader, what: string): string[] {
  let t = r.next();
  if (!t || !word(t)) throw new ModuleArgError(`missing ${what}`);
  if (t.quoted || !t.value.startsWith('[')) return [t.value];
  const out: string[] = [];
  let v = t.value.slice(1);
  for (;;) {
    if (!t.quoted && v.endsWith(']')) {
      if (v.length > 1) out.push(v.slice(0, -1));
      break;
    }
    if (t.quoted || v !== '') out.push(v);
    t = r.next();
    if (!t || !word(t)) throw new ModuleArgError(`missing "]" after the ${what} list`);
    v = t.value;
  }
  if (!out.length) throw new ModuleArgError(`empty ${what} list`);
  return out;
}

function readExtract(r: ArgReader): Extract {
  const column = r.value('extract column');
  return { column, name: r.accept('as') ? r.value('name after "as"') : column };
}

function readExtracts(r: ArgReader): Extract[] {
  if (r.peek()?.kind !== 'lparen') return [readExtract(r)];
  r.next();
  const out: Extract[] = [];
  while (r.peek()?.kind !== 'rparen') {
    if (r.done) throw new ModuleArgError('missing ")" after the extract columns');
    out.push(readExtract(r));
  }
  r.next();
  return out;
}

function readOperations(r: ArgReader, filtering: boolean): Operation[] {
  const ops: Operation[] = [];
  while (!r.done) {
    const evs = readList(r, 'enumerated value');
    const match = readList(r, 'match column');
    if (r.done) throw new ModuleArgError(`missing extract column after "${match.join(' ')}"`);
    const extract = readExtracts(r);
    if (evs.length !== match.length) {
      throw new ModuleArgError(`${evs.length} enumerated value${evs.length === 1 ? '' : 's'} but ${match.length} match column${match.length === 1 ? '' : 's'}`);
    }
    if (!extract.length && !filtering) throw new ModuleArgError('"()" extracts nothing: only allowed with -s or -v');
    ops.push({ evs, match, extract });
  }
  if (!ops.length) throw new ModuleArgError('missing operation: <enumerated value> <match column> <extract column>');
  return ops;
}

function columnIndex(t: LookupTable, ref: string, column: string): number {
  const i = t.columns.indexOf(column);
  if (i < 0) throw new Error(`lookup: resource "${ref}" has no column "${column}"`);
  return i;
}

function bind(t: LookupTable, ref: string, ops: Operation[]): BoundOperation[] {
  return ops.map((op) => ({
    index: new TableIndex(
      t,
      op.match.map((c) => columnIndex(t, ref, c)),
    ),
    extract: op.extract.map((x) => columnIndex(t, ref, x.column)),
  }));
}

/** The EVs' values as UTF-8 bytes (numbers as their text); undefined when one is missing. */
function keyOf(e: Entry, evs: string[], rt: RuntimeContext): Uint8Array[] | undefined {
  const values: Uint8Array[] = [];
  for (const name of evs) {
    const v = getEV(e, name, rt);
    if (v === undefined) return undefined;
    values.push(Buffer.isBuffer(v) ? v : Buffer.from(evToString(v), 'utf8'));
  }
  return values;
}

export const lookupModule: ModuleDef = {
  name: 'lookup',
  info: 'Enrich entries from a CSV resource (or an inner query @name): EV, match column, extract column [as name]; -s drops entries without a match, -v keeps only those',
  examples: [
    'lookup -r hosts host host owner',
    'lookup -r places City name (lat long as lon)',
    'lookup -v -r allowlist [src port] [ip port] ()',
    'lookup -r @users user name team',
  ],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ r: 'value', s: 'bool', v: 'bool' });
    const ref = flags.r;
    if (typeof ref !== 'string' || ref === '') throw new ModuleArgError('missing -r <resource>');
    const strict = flags.s === true;
    const invert = flags.v === true;
    const ops = readOperations(r, strict || invert);
    const extracts = ops.flatMap((o) => o.extract);
    // Bound once per table object: once per compile (a worker's job), never per entry.
    const bound = new WeakMap<LookupTable, BoundOperation[]>();
    return {
      produced: invert ? [] : [...new Set(extracts.map((x) => x.name))],
      consumed: [...new Set(ops.flatMap((o) => o.evs))],
      resources: [{ ref, columns: [...new Set([...ops.flatMap((o) => o.match), ...extracts.map((x) => x.column)])] }],
      process(e, rt) {
        const table = rt.lookupTable?.(ref);
        if (!table) throw new Error(`lookup: resource "${ref}" was not loaded for this search`);
        let b = bound.get(table);
        if (!b) bound.set(table, (b = bind(table, ref, ops)));
        const width = table.columns.length;
        let missed = false;
        for (let i = 0; i < ops.length; i++) {
          const key = keyOf(e, ops[i].evs, rt);
          const row = key === undefined ? -1 : b[i].index.find(key);
          if (row < 0) {
            missed = true;
            continue;
          }
          if (invert) continue;
          const names = ops[i].extract;
          b[i].extract.forEach((c, k) => e.evs.set(names[k].name, decodeCell(table, row * width + c)));
        }
        if (invert) return missed;
        return !(strict && missed);
      },
    };
  },
};
