import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { AppError, refusal } from '../common/errors/app-error';
import { mapUploadError, UPLOAD_LIMITS } from '../storage/upload.interceptor';
import { AX_UPLOAD_MAX_BYTES } from './autoextractors.service';

/**
 * The product's upload form (client UploadExtraction): one file part named `extraction`, held in
 * memory (at most AX_UPLOAD_MAX_BYTES: 413 beyond), with the limits and wording of every upload.
 */
@Injectable()
export class AxUploadInterceptor implements NestInterceptor {
  private readonly handler: RequestHandler = multer({ storage: multer.memoryStorage(), limits: { ...UPLOAD_LIMITS, fileSize: AX_UPLOAD_MAX_BYTES, headerPairs: 100 } }).single(
    'extraction',
  );

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    await new Promise<void>((resolve, reject) =>
      this.handler(req, res, (err?: unknown) => {
        if (!err) return resolve();
        const code = (err as { code?: string }).code;
        reject(code === 'LIMIT_UNEXPECTED_FILE' ? refusal('AUTOEXTRACTOR_FILE_PART_REQUIRED') : mapUploadError(err, AX_UPLOAD_MAX_BYTES, 'the autoextractor file limit (1 MiB)'));
      }),
    ).catch((err: unknown) => {
      throw err instanceof AppError ? err : refusal('MALFORMED_MULTIPART');
    });
    return next.handle();
  }
}
