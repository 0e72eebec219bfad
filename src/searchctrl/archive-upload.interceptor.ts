/**
 * The upload of an archive import: admitted first (SearchTransferService.admitImport: 429 before
 * a byte is read when the user's imports are running and waiting already), then received to a
 * temp file by multer, at most RENDER_STORE_LIMIT_BYTES (a compressed archive is never larger
 * than what it unpacks to; 413 while streaming), and removed after the handler.
 */
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Request, RequestHandler, Response } from 'express';
import multer, { diskStorage } from 'multer';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import { finalize, Observable } from 'rxjs';
import { AuthContext } from '../identity/auth.types';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { mapUploadError } from '../storage/upload.interceptor';
import { SearchTransferService } from './searchctrl-transfer.service';

/** Multipart parts besides the archive: GID, BatchName, BatchInfo. */
const LIMITS = { files: 1, fields: 8, parts: 10, fieldSize: 8192 } as const;

@Injectable()
export class ArchiveUploadInterceptor implements NestInterceptor {
  private readonly handler: RequestHandler;
  private readonly max: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly transfer: SearchTransferService,
  ) {
    this.max = config.renderStoreLimitBytes;
    this.handler = multer({ storage: diskStorage({ destination: os.tmpdir() }), limits: { fileSize: this.max, ...LIMITS } }).single('file');
  }

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<Request & { auth?: AuthContext }>();
    const res = ctx.switchToHttp().getResponse<Response>();
    if (req.auth) this.transfer.admitImport(req.auth.uid);
    await new Promise<void>((resolve, reject) =>
      this.handler(req, res, (err?: unknown) => (err ? reject(mapUploadError(err, this.max, 'RENDER_STORE_LIMIT_BYTES', LIMITS.fieldSize)) : resolve())),
    );
    const file = req.file?.path;
    return next.handle().pipe(finalize(() => void (file && fsp.rm(file, { force: true }))));
  }
}
