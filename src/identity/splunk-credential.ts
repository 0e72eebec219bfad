import { Request } from 'express';
import { AppError, refusal } from '../common/errors/app-error';

/**
 * A refused Splunk HEC credential: a refusal of the catalogue (HEC_*) that also carries HEC's
 * error code (2 token required, 3 invalid authorization, 4 invalid token), which the HEC routes
 * answer with.
 */
export class SplunkCredentialError extends AppError {
  constructor(
    readonly hecCode: 2 | 3 | 4,
    refused: AppError,
  ) {
    super(refused.status, refused.message, {}, refused.code);
    this.name = 'SplunkCredentialError';
  }
}

/** The API token of a Splunk credential: `Authorization: Splunk <token>`, else `?token=`. */
export function splunkSecret(req: Pick<Request, 'headers' | 'query'>): string {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Splunk\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new SplunkCredentialError(3, refusal('HEC_AUTHORIZATION_INVALID'));
    return m[1];
  }
  const query = req.query.token;
  if (typeof query !== 'string' || !query) throw new SplunkCredentialError(2, refusal('HEC_TOKEN_REQUIRED'));
  return query;
}

/** A refusal of the token itself (401) or of its rights (403), in HEC's terms (code 4); anything else as it is. */
export function asSplunkRefusal(err: unknown): unknown {
  if (err instanceof SplunkCredentialError || !(err instanceof AppError) || (err.status !== 401 && err.status !== 403)) return err;
  return new SplunkCredentialError(4, err.status === 401 ? refusal('HEC_TOKEN_INVALID', err.message) : refusal('HEC_TOKEN_FORBIDDEN', err.message));
}
