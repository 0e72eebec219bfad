import { Request } from 'express';
import { StorageEngine } from 'multer';
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { detectContentType, SNIFF_BYTES, TextCheck } from './content-sniff';

/** What the upload engine learned about an upload while streaming it to a temporary file. */
export interface StoredUpload {
  /** The content ID the blob will have once committed. */
  contentId: string;
  /** Temporary file (same directory as the blobs, so the commit is a rename). */
  tmpPath: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** Server-detected content type. */
  contentType: string;
  /** The client's file name: a display name at most, never a path. */
  originalName: string;
}

export type UploadedFile = Express.Multer.File & { upload: StoredUpload };

const CONTENT_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isMissing = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * Immutable content blobs in one directory under DATA_DIR, named by content ID. A blob is never
 * modified in place: replacing contents writes a new blob (temp file, fsync, rename), switches the
 * owner's metadata row to it in one transaction, and only then removes the old blob. A reader
 * resolves the blob from the metadata row and opens it; an opened blob stays readable even if it
 * is removed afterwards, and a reader that loses the race (ENOENT) re-reads the metadata.
 */
export class BlobStore {
  constructor(readonly root: string) {}

  async init(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true, mode: 0o700 });
  }

  pathOf(contentId: string): string {
    if (!CONTENT_ID_RE.test(contentId)) throw new Error(`invalid content id ${contentId}`);
    return path.join(this.root, contentId);
  }

  /** A multer storage engine that streams the `file` part to a temp file, hashing and sniffing as it goes. */
  engine(): StorageEngine {
    return {
      _handleFile: (_req: Request, file: Express.Multer.File, cb: (err?: unknown, info?: Partial<UploadedFile>) => void) => {
        const contentId = randomUUID();
        const tmpPath = path.join(this.root, `${contentId}.tmp`);
        // Known before any byte is written, so multer can remove it on an abort.
        (file as Partial<UploadedFile>).path = tmpPath;
        this.receive(file.stream, tmpPath).then(
          async (r) => {
            const contentType = await detectContentType(r.head, r.size, r.isText);
            const upload: StoredUpload = { contentId, tmpPath, size: r.size, sha256: r.sha256, contentType, originalName: file.originalname ?? '' };
            cb(null, { path: tmpPath, size: r.size, upload });
          },
          async (err) => {
            await fsp.rm(tmpPath, { force: true }).catch(() => undefined);
            cb(err);
          },
        );
      },
      _removeFile: (_req: Request, file: Express.Multer.File, cb: (err: Error | null) => void) => {
        fsp.rm(file.path ?? '', { force: true }).then(
          () => cb(null),
          (err: Error) => cb(err),
        );
      },
    };
  }

  private async receive(stream: NodeJS.ReadableStream, tmpPath: string) {
    const hash = createHash('sha256');
    const text = new TextCheck();
    const headParts: Buffer[] = [];
    let headLen = 0;
    let size = 0;
    const fh = await fsp.open(tmpPath, 'wx', 0o600);
    try {
      for await (const data of stream as AsyncIterable<Buffer>) {
        const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data);
        hash.update(chunk);
        text.push(chunk);
        size += chunk.length;
        if (headLen < SNIFF_BYTES) {
          const part = chunk.subarray(0, SNIFF_BYTES - headLen);
          headParts.push(part);
          headLen += part.length;
        }
        let off = 0;
        while (off < chunk.length) off += (await fh.write(chunk, off, chunk.length - off)).bytesWritten;
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    return { size, sha256: hash.digest('hex'), head: Buffer.concat(headParts), isText: text.finish() };
  }

  /** Makes an upload a blob (rename in the same directory, then fsync of the directory). */
  async commit(upload: StoredUpload): Promise<string> {
    await fsp.rename(upload.tmpPath, this.pathOf(upload.contentId));
    await this.syncDir();
    return upload.contentId;
  }

  /** Removes an upload's temp file if it is still there (no-op after commit). */
  async discardTmp(upload: StoredUpload | undefined): Promise<void> {
    if (upload) await fsp.rm(upload.tmpPath, { force: true }).catch(() => undefined);
  }

  /** Removes a blob; missing blobs are fine. */
  async remove(contentId: string | null | undefined): Promise<void> {
    if (contentId) await fsp.rm(this.pathOf(contentId), { force: true }).catch(() => undefined);
  }

  /** Opens a blob for reading; null when it does not exist (any more). */
  async open(contentId: string): Promise<fsp.FileHandle | null> {
    try {
      return await fsp.open(this.pathOf(contentId), fs.constants.O_RDONLY);
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  /** Copy of a blob under a new content ID (a hard link: blobs are immutable); null if the source is gone. */
  async copy(contentId: string): Promise<string | null> {
    const id = randomUUID();
    try {
      await fsp.link(this.pathOf(contentId), this.pathOf(id));
    } catch (e) {
      if (isMissing(e)) return null;
      const tmp = path.join(this.root, `${id}.tmp`);
      try {
        await fsp.copyFile(this.pathOf(contentId), tmp);
        const fh = await fsp.open(tmp, 'r+');
        await fh.sync().finally(() => fh.close());
        await fsp.rename(tmp, this.pathOf(id));
      } catch (e2) {
        await fsp.rm(tmp, { force: true });
        if (isMissing(e2)) return null;
        throw e2;
      }
    }
    await this.syncDir();
    return id;
  }

  /**
   * Start-up: creates the directory and removes what a crash left behind (between writing a
   * blob and committing or removing its row) older than an hour. Answers how many it removed.
   */
  async recover(referenced: () => Promise<ReadonlySet<string>>): Promise<number> {
    await this.init();
    return this.sweep(await referenced(), 60 * 60 * 1000).catch(() => 0);
  }

  /**
   * Removes leftovers of crashes: temp files and blobs no metadata row refers to, older than
   * `minAgeMs` (younger ones may belong to an upload in progress).
   */
  async sweep(referenced: ReadonlySet<string>, minAgeMs: number): Promise<number> {
    let removed = 0;
    const now = Date.now();
    for (const name of await fsp.readdir(this.root).catch(() => [] as string[])) {
      const id = name.endsWith('.tmp') ? null : name;
      if (id !== null && (!CONTENT_ID_RE.test(id) || referenced.has(id))) continue;
      const full = path.join(this.root, name);
      const st = await fsp.stat(full).catch(() => null);
      if (!st || !st.isFile() || now - st.mtimeMs < minAgeMs) continue;
      await fsp.rm(full, { force: true });
      removed++;
    }
    return removed;
  }

  private async syncDir(): Promise<void> {
    const dir = await fsp.open(this.root, fs.constants.O_RDONLY).catch(() => null);
    if (!dir) return;
    try {
      await dir.sync();
    } catch {
      // Some filesystems refuse fsync on directories; the rename is still atomic.
    } finally {
      await dir.close();
    }
  }
}

/** Reads up to `n` leading bytes of an open blob. */
export async function readHead(fh: fsp.FileHandle, n: number): Promise<Buffer> {
  const buf = Buffer.alloc(n);
  let off = 0;
  while (off < n) {
    const { bytesRead } = await fh.read(buf, off, n - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return buf.subarray(0, off);
}
