import { CallHandler, ExecutionContext, Inject, Injectable, mixin, NestInterceptor, Type } from '@nestjs/common';
import { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { finalize, Observable } from 'rxjs';
import { AppError, badRequest, payloadTooLarge } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlobStore, StoredUpload, UploadedFile } from './blob-store';

/** Multipart limits besides the file size (contract-independent; see README). */
export const UPLOAD_LIMITS = { files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024, fieldNameSize: 100 } as const;

const MiB = 1024 * 1024;
const human = (n: number) => (n >= MiB && n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

/** Multer and busboy failures as client errors with clear messages (never a 500). */
export function mapUploadError(err: unknown, maxSize: number): AppError {
  const e = err as { name?: string; code?: string; field?: string; message?: string };
  if (e?.name === 'MulterError') {
    switch (e.code) {
      case 'LIMIT_FILE_SIZE':
        return payloadTooLarge(`Uploaded file is larger than the limit of ${human(maxSize)}`);
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_FIELD_COUNT':
        return payloadTooLarge('Too many parts in the multipart body (one "file" part and at most 10 fields)');
      case 'LIMIT_FIELD_KEY':
      case 'LIMIT_FIELD_VALUE':
        return payloadTooLarge(`A multipart field is larger than ${UPLOAD_LIMITS.fieldSize} bytes`);
      case 'LIMIT_UNEXPECTED_FILE':
        return badRequest(`Unexpected file part "${String(e.field ?? '').slice(0, 40)}": only "file" is accepted`);
      default:
        return badRequest('Malformed multipart body');
    }
  }
  return badRequest('Malformed multipart body');
}

/**
 * Receives the multipart part `file` into `BlobStore` (streamed to a temp file, size-limited
 * while streaming: 413 beyond the limit) and leaves the other fields in `req.body`. The temp
 * file is removed after the handler, whatever happened (a committed upload was renamed away).
 */
export function UploadInterceptor(storeToken: string, maxSize: (c: AppConfig) => number): Type<NestInterceptor> {
  @Injectable()
  class Upload implements NestInterceptor {
    private readonly handler: RequestHandler;
    private readonly max: number;

    constructor(
      @Inject(APP_CONFIG) config: AppConfig,
      @Inject(storeToken) private readonly store: BlobStore,
    ) {
      this.max = maxSize(config);
      this.handler = multer({ storage: store.engine(), limits: { fileSize: this.max, ...UPLOAD_LIMITS } }).single('file');
    }

    async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = ctx.switchToHttp().getRequest<Request>();
      const res = ctx.switchToHttp().getResponse<Response>();
      await new Promise<void>((resolve, reject) => this.handler(req, res, (err?: unknown) => (err ? reject(mapUploadError(err, this.max)) : resolve())));
      const upload = (req.file as UploadedFile | undefined)?.upload;
      return next.handle().pipe(finalize(() => void this.store.discardTmp(upload)));
    }
  }
  return mixin(Upload);
}

/** The upload of this request, or a 400 when the `file` part is missing. */
export function requireUpload(file: Express.Multer.File | undefined): StoredUpload {
  const upload = (file as UploadedFile | undefined)?.upload;
  if (!upload) throw badRequest('A multipart body with a part named "file" is required');
  return upload;
}
