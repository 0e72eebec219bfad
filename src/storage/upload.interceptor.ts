import { CallHandler, ExecutionContext, Inject, Injectable, mixin, NestInterceptor, Type } from '@nestjs/common';
import { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { finalize, Observable } from 'rxjs';
import { AppError, refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlobStore, StoredUpload, UploadedFile } from './blob-store';

/** Multipart limits besides the file size (contract-independent; see README). */
export const UPLOAD_LIMITS = { files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024, fieldNameSize: 100 } as const;

/** The size limit of an upload and the setting that changes it (named in the 413). */
export interface UploadLimit {
  maxSize: (c: AppConfig) => number;
  setting: string;
}

/** Multer and busboy failures as client errors with clear messages (never a 500). */
export function mapUploadError(err: unknown, maxSize: number, setting: string, fieldSize: number = UPLOAD_LIMITS.fieldSize): AppError {
  const e = err as { name?: string; code?: string; field?: string; message?: string };
  if (e?.name === 'MulterError') {
    switch (e.code) {
      case 'LIMIT_FILE_SIZE':
        return refusal('FILE_TOO_LARGE', maxSize, setting);
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_FIELD_COUNT':
        return refusal('MULTIPART_TOO_MANY_PARTS', 'one "file" part and at most 10 fields');
      case 'LIMIT_FIELD_KEY':
      case 'LIMIT_FIELD_VALUE':
        return refusal('MULTIPART_FIELD_TOO_LARGE', fieldSize);
      case 'LIMIT_UNEXPECTED_FILE':
        return refusal('MULTIPART_UNEXPECTED_FILE_PART', String(e.field ?? '').slice(0, 40));
      default:
        return refusal('MALFORMED_MULTIPART');
    }
  }
  return refusal('MALFORMED_MULTIPART');
}

/**
 * Receives the multipart part `file` into `BlobStore` (streamed to a temp file, size-limited
 * while streaming: 413 beyond the limit) and leaves the other fields in `req.body`. The temp
 * file is removed after the handler, whatever happened (a committed upload was renamed away).
 */
export function UploadInterceptor(storeToken: string, limit: UploadLimit): Type<NestInterceptor> {
  @Injectable()
  class Upload implements NestInterceptor {
    private readonly handler: RequestHandler;
    private readonly max: number;

    constructor(
      @Inject(APP_CONFIG) config: AppConfig,
      @Inject(storeToken) private readonly store: BlobStore,
    ) {
      this.max = limit.maxSize(config);
      this.handler = multer({ storage: store.engine(), limits: { fileSize: this.max, ...UPLOAD_LIMITS } }).single('file');
    }

    async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = ctx.switchToHttp().getRequest<Request>();
      const res = ctx.switchToHttp().getResponse<Response>();
      await receive(this.handler, req, res, (err) => mapUploadError(err, this.max, limit.setting));
      const upload = (req.file as UploadedFile | undefined)?.upload;
      return next.handle().pipe(finalize(() => void this.store.discardTmp(upload)));
    }
  }
  return mixin(Upload);
}

/** Runs a multer handler on the request, mapping its failures. */
function receive(handler: RequestHandler, req: Request, res: Response, map: (err: unknown) => AppError): Promise<void> {
  return new Promise<void>((resolve, reject) => handler(req, res, (err?: unknown) => (err ? reject(map(err)) : resolve())));
}

/**
 * The multipart part `file` held in memory (`req.file.buffer`, for bodies that are parsed whole,
 * such as lines to ingest), with the same limits and 413 wording as `UploadInterceptor`.
 */
export function MemoryUploadInterceptor(limit: UploadLimit & { fieldSize: number }): Type<NestInterceptor> {
  @Injectable()
  class MemoryUpload implements NestInterceptor {
    private readonly handler: RequestHandler;
    private readonly max: number;

    constructor(@Inject(APP_CONFIG) config: AppConfig) {
      this.max = limit.maxSize(config);
      this.handler = multer({ storage: multer.memoryStorage(), limits: { ...UPLOAD_LIMITS, fileSize: this.max, fieldSize: limit.fieldSize, headerPairs: 100 } }).single('file');
    }

    async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = ctx.switchToHttp().getRequest<Request>();
      await receive(this.handler, req, ctx.switchToHttp().getResponse<Response>(), (err) => mapUploadError(err, this.max, limit.setting, limit.fieldSize));
      return next.handle();
    }
  }
  return mixin(MemoryUpload);
}

/** The upload of this request, or a 400 when the `file` part is missing. */
export function requireUpload(file: Express.Multer.File | undefined): StoredUpload {
  const upload = (file as UploadedFile | undefined)?.upload;
  if (!upload) throw refusal('FILE_PART_REQUIRED');
  return upload;
}
