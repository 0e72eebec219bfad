/**
 * Search archives: `archive` downloads (tar.gz: manifest.json + entries.jsonl or result.json) and
 * their strict validation on import. Archives are untrusted: every limit is checked while
 * streaming, names are an exact allow-list, and the result is written to a temp directory only.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { AppError, refusal } from '../common/errors/app-error';
import { JsonReader, JsonSyntaxError } from './json-reader';
import { DATA_FILE, INDEX_FILE, RESULT_FILE, StoredResult } from './render-store';
import { resultPrefix } from './stored-result';
import { LiveSearch } from './search.model';
import {
  ArchiveManifest,
  ArrayResultKind,
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  isObjectResultKind,
  RESULT_ARRAY_ELEMENT,
  RESULT_OBJECT_ELEMENTS,
  validateEntryLine,
  validateManifest,
} from './archive-schema';

export const MANIFEST_FILE = 'manifest.json';
const ALLOWED = new Set([MANIFEST_FILE, DATA_FILE, RESULT_FILE]);
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Decompressed/compressed ratio refused once more than RATIO_FLOOR bytes came out. */
export const MAX_RATIO = 200;
const RATIO_FLOOR = 1024 * 1024;
/**
 * Unpacked bytes allowed beyond the files the archive's headers declared so far (headers,
 * padding, the end marker, and what the stream buffers hold ahead of the tar parser). A stream of
 * zeros or junk declares nothing, so it is refused after this much instead of after MAX_RATIO
 * (stream buffers hold well under 100 KiB).
 */
export const MAX_UNDECLARED_BYTES = 256 * 1024;
const TAR_BLOCK = 512;
const FLUSH_BYTES = 256 * 1024;

export const invalidArchive = (why: string) => refusal('INVALID_ARCHIVE', why);

/** Streams a finished search as tar.gz. */
export function archiveStream(s: LiveSearch): Readable {
  const pack = tar.pack();
  const files: Array<[string, number]> = s.store.condensed ? [[RESULT_FILE, s.store.resultBytes]] : [[DATA_FILE, s.store.dataBytes]];
  const manifest: ArchiveManifest = {
    Format: ARCHIVE_FORMAT,
    Version: ARCHIVE_VERSION,
    UserQuery: s.userQuery,
    EffectiveQuery: s.effectiveQuery,
    StartRange: s.start.toISOString(),
    EndRange: s.end.toISOString(),
    Started: s.started.toISOString(),
    Finished: (s.finishedAt ?? new Date()).toISOString(),
    RenderModule: s.renderModule,
    RenderCmd: s.renderCmd,
    DownloadFormats: [...s.downloadFormats],
    CollapsingIndex: s.collapsingIndex,
    QueryTimeSpecified: s.queryTimeSpecified,
    Name: s.name,
    Metadata: s.saveMetadata ?? null,
    Kind: s.store.kind,
    EntryCount: s.store.entryCount,
    StoredEntries: s.store.count,
    OverLimit: s.store.overLimit,
    Files: Object.fromEntries(files),
  };
  const out = new PassThrough();
  const gz = zlib.createGzip();
  const write = async () => {
    const m = Buffer.from(JSON.stringify(manifest, null, 1));
    await new Promise<void>((res, rej) => pack.entry({ name: MANIFEST_FILE, size: m.length, mode: 0o644 }, m, (e) => (e ? rej(e) : res())));
    for (const [name, size] of files) {
      const entry = pack.entry({ name, size, mode: 0o644 });
      const src = size > 0 ? fs.createReadStream(path.join(s.store.dir, name), { start: 0, end: size - 1 }) : Readable.from([]);
      await pipeline(src, entry);
    }
    pack.finalize();
  };
  write().catch((err: unknown) => out.destroy(err as Error));
  pipeline(pack, gz, out).catch((err: unknown) => out.destroy(err as Error));
  return out;
}

export interface ImportLimits {
  /** Total decompressed bytes (and per file). */
  maxUnpackedBytes: number;
  /** The setting behind maxUnpackedBytes, named in the 413 (default RENDER_STORE_LIMIT_BYTES). */
  unpackedSetting?: string;
  /** `result.json`'s size (MAX_RESULT_BYTES): what a search may store as one condensed result. */
  maxResultBytes: number;
  maxEntries: number;
  /**
   * Charges the bytes of the imported search's files as they are written (its owner's quotas,
   * store-quota.ts); rejects (413) when they would pass one. Default: no quota.
   */
  take?: (bytes: number) => Promise<void>;
}

/** Longest line of `entries.jsonl`, and longest element of `result.json`: one entry of a full ingest batch, base64 in JSON. */
export const MAX_ENTRY_LINE_BYTES = 48 * 1024 * 1024;
/** Most entries one archive may bring. */
export const MAX_IMPORT_ENTRIES = 10_000_000;

export interface ImportedArchive {
  manifest: ArchiveManifest;
  entryCount: number;
}

function counter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        onBytes(chunk.length);
        cb(null, chunk);
      } catch (err) {
        cb(err as Error);
      }
    },
  });
}

/**
 * Writes a file in chunks of FLUSH_BYTES, each charged with `take` before it is written: the
 * owner's quotas see an import's bytes as they land, not once it is done.
 */
class ChargedFile {
  private parts: Buffer[] = [];
  /** Text written since the last Buffer part (joined once, not a Buffer per row). */
  private text: string[] = [];
  private pending = 0;

  constructor(
    private readonly fh: fsp.FileHandle,
    private readonly take: (bytes: number) => Promise<void>,
  ) {}

  async write(data: Buffer | string): Promise<void> {
    if (typeof data === 'string') {
      this.text.push(data);
      this.pending += data.length;
    } else {
      this.endText();
      this.parts.push(data);
      this.pending += data.length;
    }
    if (this.pending >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    this.endText();
    if (this.parts.length === 0) return;
    const buf = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.pending = 0;
    await this.take(buf.length);
    await this.fh.write(buf);
  }

  private endText(): void {
    if (this.text.length === 0) return;
    this.parts.push(Buffer.from(this.text.join(''), 'utf8'));
    this.text = [];
  }
}

const noQuota = async () => undefined;

/**
 * Unpacks and validates `file` into `dir` (which must exist and be empty), rewriting the entries
 * (or the condensed result) in canonical form and rebuilding the index, element by element:
 * memory holds a chunk and one entry or row, never a file. Throws 400/413; the caller removes
 * `dir` on error. Runs in an import worker (import.worker.ts), off the event loop.
 */
export async function importArchive(file: string, dir: string, limits: ImportLimits): Promise<ImportedArchive> {
  const setting = limits.unpackedSetting ?? 'RENDER_STORE_LIMIT_BYTES';
  const overUnpacked = () => refusal('ARCHIVE_TOO_LARGE', 'Archive (unpacked)', limits.maxUnpackedBytes, setting);
  let compressed = 0;
  let unpacked = 0;
  /** Bytes the headers seen so far account for: each header block and its file, padded to 512. */
  let declared = 0;
  const extract = tar.extract();
  const feed = pipeline(
    fs.createReadStream(file),
    counter((n) => (compressed += n)),
    zlib.createGunzip({ chunkSize: 64 * 1024 }),
    counter((n) => {
      unpacked += n;
      if (unpacked > limits.maxUnpackedBytes + 64 * 1024) throw overUnpacked();
      if (unpacked > RATIO_FLOOR && unpacked / Math.max(1, compressed) > MAX_RATIO) throw refusal('ARCHIVE_RATIO_TOO_HIGH', MAX_RATIO);
      if (unpacked - declared > MAX_UNDECLARED_BYTES) throw refusal('ARCHIVE_TOO_LARGE', 'Data beyond the files the archive declares', MAX_UNDECLARED_BYTES);
    }),
    extract,
  );
  const seen = new Map<string, number>();
  let manifestText = '';
  let total = 0;
  const walk = async () => {
    for await (const entry of extract) {
      const h = entry.header;
      if (h.type !== 'file') throw invalidArchive(`entry "${h.name.slice(0, 64)}" is not a regular file`);
      if (h.name.includes('..') || h.name.startsWith('/') || h.name.includes('\\') || !ALLOWED.has(h.name)) throw invalidArchive(`unexpected file "${h.name.slice(0, 64)}"`);
      if (seen.has(h.name)) throw invalidArchive(`duplicate file ${h.name}`);
      if (seen.size >= ALLOWED.size) throw invalidArchive('too many files');
      const size = h.size ?? 0;
      declared += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
      if (h.name === MANIFEST_FILE && size > MAX_MANIFEST_BYTES) throw refusal('ARCHIVE_TOO_LARGE', MANIFEST_FILE, MAX_MANIFEST_BYTES);
      if (h.name === RESULT_FILE && size > limits.maxResultBytes) throw refusal('ARCHIVE_TOO_LARGE', RESULT_FILE, limits.maxResultBytes, 'MAX_RESULT_BYTES');
      if (size > limits.maxUnpackedBytes) throw refusal('ARCHIVE_TOO_LARGE', h.name, limits.maxUnpackedBytes, setting);
      total += size;
      if (total > limits.maxUnpackedBytes) throw overUnpacked();
      let written = 0;
      if (h.name === MANIFEST_FILE) {
        const parts: Buffer[] = [];
        for await (const chunk of entry) parts.push(chunk as Buffer);
        const buf = Buffer.concat(parts);
        written = buf.length;
        manifestText = buf.toString('utf8');
      } else {
        const fh = await fsp.open(path.join(dir, `${h.name}.raw`), 'wx', 0o600);
        try {
          for await (const chunk of entry) {
            written += (chunk as Buffer).length;
            await fh.write(chunk as Buffer);
          }
        } finally {
          await fh.close();
        }
      }
      if (written !== size) throw invalidArchive(`${h.name} is truncated`);
      seen.set(h.name, size);
    }
  };
  try {
    await Promise.all([
      feed,
      walk().catch((err: unknown) => {
        extract.destroy(err as Error);
        throw err;
      }),
    ]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidArchive('not a well-formed gzip-compressed tar archive');
  }
  if (!seen.has(MANIFEST_FILE)) throw invalidArchive('manifest.json is missing');
  const manifest = validateManifest(manifestText);
  for (const [name, size] of Object.entries(manifest.Files)) {
    if (seen.get(name) !== size) throw invalidArchive(`${name} does not match the manifest`);
  }
  if (seen.size !== Object.keys(manifest.Files).length + 1) throw invalidArchive('files do not match the manifest');
  const take = limits.take ?? noQuota;
  if (manifest.Kind === 'entries') {
    if (!seen.has(DATA_FILE)) throw invalidArchive(`${DATA_FILE} is missing`);
    const count = await rebuildEntries(dir, limits.maxEntries, take);
    if (count !== manifest.StoredEntries) throw invalidArchive('entry count does not match the manifest');
    return { manifest, entryCount: count };
  }
  if (!seen.has(RESULT_FILE)) throw invalidArchive(`${RESULT_FILE} is missing`);
  await rebuildResult(dir, manifest, take);
  await fsp.writeFile(path.join(dir, DATA_FILE), '');
  await fsp.writeFile(path.join(dir, INDEX_FILE), '');
  return { manifest, entryCount: manifest.EntryCount };
}

/** Validates every line of the raw entries file, writing canonical lines and the index. */
async function rebuildEntries(dir: string, maxEntries: number, take: (bytes: number) => Promise<void>): Promise<number> {
  const src = path.join(dir, `${DATA_FILE}.raw`);
  const dataFh = await fsp.open(path.join(dir, DATA_FILE), 'wx', 0o600);
  const indexFh = await fsp.open(path.join(dir, INDEX_FILE), 'wx', 0o600);
  const data = new ChargedFile(dataFh, take);
  const index = new ChargedFile(indexFh, take);
  let count = 0;
  let offset = 0;
  try {
    for await (const line of boundedLines(fs.createReadStream(src, { highWaterMark: FLUSH_BYTES }), MAX_ENTRY_LINE_BYTES)) {
      if (line === '') continue;
      if (++count > maxEntries) throw refusal('ARCHIVE_TOO_MANY_ENTRIES', maxEntries);
      const { canonical, tsUs } = validateEntryLine(line, count);
      const buf = Buffer.from(canonical + '\n', 'utf8');
      const rec = Buffer.alloc(16);
      rec.writeBigUInt64LE(BigInt(offset), 0);
      rec.writeBigInt64LE(BigInt(tsUs), 8);
      await data.write(buf);
      await index.write(rec);
      offset += buf.length;
    }
    await data.flush();
    await index.flush();
  } finally {
    await dataFh.close();
    await indexFh.close();
    await fsp.rm(src, { force: true });
  }
  return count;
}

/**
 * Validates the raw `result.json` one element (table row, chart point, gauge...) at a time and
 * writes it in canonical form (see serializeResult), without ever holding the whole document.
 */
async function rebuildResult(dir: string, manifest: ArchiveManifest, take: (bytes: number) => Promise<void>): Promise<void> {
  const kind = manifest.Kind as StoredResult['kind'];
  const src = path.join(dir, `${RESULT_FILE}.raw`);
  const tmp = path.join(dir, `${RESULT_FILE}.tmp`);
  const fh = await fsp.open(tmp, 'wx', 0o600);
  const out = new ChargedFile(fh, take);
  const stream = fs.createReadStream(src, { highWaterMark: FLUSH_BYTES });
  const r = JsonReader.of(stream);
  const tooLong = (m: number) => refusal('ARCHIVE_TOO_LARGE', `An element of ${RESULT_FILE}`, m);
  const element = (max: number) => r.raw(max, tooLong);
  const elements = () => r.elements(FLUSH_BYTES, MAX_ENTRY_LINE_BYTES, tooLong);
  const parse = (b: Buffer): unknown => {
    try {
      return JSON.parse(b.toString('utf8'));
    } catch {
      throw invalidArchive(`${RESULT_FILE} is not valid JSON`);
    }
  };
  /** An array of elements, each checked and written canonically: parsed a batch of about FLUSH_BYTES at a time. */
  const array = async (check: (v: unknown) => unknown) => {
    if (!(await r.open('['))) throw notItsKind();
    await out.write('[');
    let first = true;
    for (let text = await elements(); text; text = await elements()) {
      const batch = parse(Buffer.concat([OPEN, text, CLOSE])) as unknown[];
      if (!batch.length) continue;
      await out.write(`${first ? '' : ','}${JSON.stringify(batch.map(check)).slice(1, -1)}`);
      first = false;
    }
    await out.write(']');
  };
  const members = async (each: (key: string) => Promise<boolean>) => {
    if (!(await r.open('{'))) throw notItsKind();
    const keys = new Set<string>();
    for (let first = true; await r.next('}', first); first = false) {
      const key = await r.key();
      if (keys.has(key)) throw invalidArchive(`${RESULT_FILE} names "${key.slice(0, 64)}" twice`);
      keys.add(key);
      if (!(await each(key))) await r.skip();
    }
    return keys;
  };
  try {
    await out.write(resultPrefix({ kind, entryCount: manifest.EntryCount }));
    const top = await members(async (key) => {
      if (key === 'kind') {
        if (parse(await element(1024)) !== kind) throw notItsKind();
      } else if (key === 'EntryCount') {
        if (parse(await element(1024)) !== manifest.EntryCount) throw invalidArchive('entry count does not match the manifest');
      } else if (key === 'Entries') {
        if (isObjectResultKind(kind)) {
          const parts = RESULT_OBJECT_ELEMENTS[kind] as Record<string, (v: unknown) => unknown>;
          await out.write('{');
          let written = 0;
          const names = await members(async (name) => {
            if (!Object.hasOwn(parts, name)) return false;
            await out.write(`${written++ ? ',' : ''}${JSON.stringify(name)}:`);
            await array(parts[name]);
            return true;
          });
          if (!Object.keys(parts).every((n) => names.has(n))) throw notItsKind();
          await out.write('}');
        } else {
          await array(RESULT_ARRAY_ELEMENT[kind as ArrayResultKind] as (v: unknown) => unknown);
        }
      } else return false;
      return true;
    });
    if (!['kind', 'EntryCount', 'Entries'].every((k) => top.has(k))) throw notItsKind();
    await r.end();
    await out.write('}');
    await out.flush();
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalidArchive(`${RESULT_FILE} is not valid JSON`);
    throw err;
  } finally {
    stream.destroy();
    await fh.close();
  }
  await fsp.rename(tmp, path.join(dir, RESULT_FILE));
  await fsp.rm(src, { force: true });
}

const notItsKind = () => invalidArchive(`${RESULT_FILE} does not match its kind`);
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * The lines of a stream (LF or CRLF), refusing any longer than `max` bytes while it streams:
 * readline would hold a 300 MB line whole before anyone could look at it.
 */
export async function* boundedLines(input: AsyncIterable<Buffer>, max: number): AsyncGenerator<string> {
  const tooLong = () => refusal('ARCHIVE_TOO_LARGE', `A line of ${DATA_FILE}`, max);
  let parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of input) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      if (length + nl - from > max) throw tooLong();
      parts.push(chunk.subarray(from, nl));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      length = 0;
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      from = nl + 1;
    }
    length += chunk.length - from;
    if (length > max) throw tooLong();
    if (from < chunk.length) parts.push(chunk.subarray(from));
  }
  if (length > 0) {
    const line = Buffer.concat(parts).toString('utf8');
    yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}
