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
import { AppError } from '../common/errors/app-error';
import { DATA_FILE, INDEX_FILE, RESULT_FILE, serializeResult, StoredResult } from './render-store';
import { LiveSearch } from './search.model';
import { validateEntryLine, validateManifest, validateResult, ArchiveManifest, ARCHIVE_FORMAT, ARCHIVE_VERSION } from './archive-schema';

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

export const invalidArchive = (why: string) => new AppError(400, `Invalid search archive: ${why}`);
const tooLarge = (why: string) => new AppError(413, `Search archive too large: ${why}`);

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
  /** `result.json`: it is parsed whole, so it has a bound of its own (MAX_RESULT_BYTES). */
  maxResultBytes: number;
  maxEntries: number;
}

/** Longest line of `entries.jsonl`: one entry of a full ingest batch, base64 in JSON. */
export const MAX_ENTRY_LINE_BYTES = 48 * 1024 * 1024;

export interface ImportedArchive {
  manifest: ArchiveManifest;
  result?: StoredResult;
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
 * Unpacks and validates `file` into `dir` (which must exist and be empty), rewriting the entries
 * in canonical form and rebuilding the index. Throws 400/413; the caller removes `dir` on error.
 */
export async function importArchive(file: string, dir: string, limits: ImportLimits): Promise<ImportedArchive> {
  let compressed = 0;
  let unpacked = 0;
  /** Bytes the headers seen so far account for: each header block and its file, padded to 512. */
  let declared = 0;
  const extract = tar.extract();
  const feed = pipeline(
    fs.createReadStream(file),
    counter((n) => (compressed += n)),
    zlib.createGunzip({ chunkSize: 64 * 1024 }), // fewer, larger chunks: less work on the event loop per MiB
    counter((n) => {
      unpacked += n;
      if (unpacked > limits.maxUnpackedBytes + 64 * 1024) throw tooLarge(`more than ${limits.maxUnpackedBytes} bytes unpacked`);
      if (unpacked > RATIO_FLOOR && unpacked / Math.max(1, compressed) > MAX_RATIO) throw tooLarge(`compression ratio above ${MAX_RATIO}`);
      if (unpacked - declared > MAX_UNDECLARED_BYTES) throw tooLarge(`more than ${MAX_UNDECLARED_BYTES} bytes beyond the files it declares`);
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
      const cap = h.name === MANIFEST_FILE ? MAX_MANIFEST_BYTES : h.name === RESULT_FILE ? Math.min(limits.maxResultBytes, limits.maxUnpackedBytes) : limits.maxUnpackedBytes;
      if (size > cap) throw tooLarge(`${h.name} declares ${size} bytes`);
      total += size;
      if (total > limits.maxUnpackedBytes) throw tooLarge(`more than ${limits.maxUnpackedBytes} bytes unpacked`);
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
  if (manifest.Kind === 'entries') {
    if (!seen.has(DATA_FILE)) throw invalidArchive(`${DATA_FILE} is missing`);
    const count = await rebuildEntries(dir, limits);
    if (count !== manifest.StoredEntries) throw invalidArchive('entry count does not match the manifest');
    return { manifest, entryCount: count };
  }
  if (!seen.has(RESULT_FILE)) throw invalidArchive(`${RESULT_FILE} is missing`);
  const raw = await fsp.readFile(path.join(dir, `${RESULT_FILE}.raw`), 'utf8');
  const result = validateResult(raw, manifest.Kind);
  if (result.EntryCount !== manifest.EntryCount) throw invalidArchive('entry count does not match the manifest');
  await fsp.writeFile(path.join(dir, RESULT_FILE), serializeResult(result), { mode: 0o600 });
  await fsp.rm(path.join(dir, `${RESULT_FILE}.raw`));
  await fsp.writeFile(path.join(dir, DATA_FILE), '');
  await fsp.writeFile(path.join(dir, INDEX_FILE), '');
  return { manifest, result, entryCount: result.EntryCount };
}

/** Validates every line of the raw entries file, writing canonical lines and the index. */
async function rebuildEntries(dir: string, limits: ImportLimits): Promise<number> {
  const src = path.join(dir, `${DATA_FILE}.raw`);
  const data = await fsp.open(path.join(dir, DATA_FILE), 'wx', 0o600);
  const index = await fsp.open(path.join(dir, INDEX_FILE), 'wx', 0o600);
  let count = 0;
  let offset = 0;
  let lines: Buffer[] = [];
  let recs: Buffer[] = [];
  let pending = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    await data.write(Buffer.concat(lines));
    await index.write(Buffer.concat(recs));
    lines = [];
    recs = [];
    pending = 0;
  };
  try {
    for await (const line of boundedLines(fs.createReadStream(src), MAX_ENTRY_LINE_BYTES)) {
      if (line === '') continue;
      if (++count > limits.maxEntries) throw tooLarge(`more than ${limits.maxEntries} entries`);
      const { canonical, tsUs } = validateEntryLine(line, count);
      const buf = Buffer.from(canonical + '\n', 'utf8');
      const rec = Buffer.alloc(16);
      rec.writeBigUInt64LE(BigInt(offset), 0);
      rec.writeBigInt64LE(BigInt(tsUs), 8);
      lines.push(buf);
      recs.push(rec);
      pending += buf.length;
      offset += buf.length;
      if (pending >= FLUSH_BYTES) await flush();
    }
    await flush();
  } finally {
    await data.close();
    await index.close();
    await fsp.rm(src, { force: true });
  }
  return count;
}

/**
 * The lines of a stream (LF or CRLF), refusing any longer than `max` bytes while it streams:
 * readline would hold a 300 MB line whole before anyone could look at it.
 */
export async function* boundedLines(input: AsyncIterable<Buffer>, max: number): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of input) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      if (length + nl - from > max) throw tooLarge(`a line is longer than ${max} bytes`);
      parts.push(chunk.subarray(from, nl));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      length = 0;
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      from = nl + 1;
    }
    length += chunk.length - from;
    if (length > max) throw tooLarge(`a line is longer than ${max} bytes`);
    if (from < chunk.length) parts.push(chunk.subarray(from));
  }
  if (length > 0) {
    const line = Buffer.concat(parts).toString('utf8');
    yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}
