import { Request } from 'express';
import { AppError } from '../common/errors/app-error';

/**
 * A refused Splunk HEC credential. Beyond its status it carries HEC's error code (2 token
 * required, 3 invalid authorization, 4 invalid token), which the HEC routes answer with.
 */
export class SplunkCredentialError extends AppError {
  constructor(
    status: 401 | 403,
    readonly hecCode: 2 | 3 | 4,
    message: string,
  ) {
    super(status, message);
    this.name = 'SplunkCredentialError';
  }
}

/** The API token of a Splunk credential: `Authorization: Splunk <token>`, else `?token=`. */
export function splunkSecret(req: Pick<Request, 'headers' | 'query'>): string {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Splunk\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new SplunkCredentialError(401, 3, 'Invalid authorization: use "Authorization: Splunk <token>"');
    return m[1];
  }
  const query = req.query.token;
  if (typeof query !== 'string' || !query) throw new SplunkCredentialError(401, 2, 'Token is required');
  return query;
}

/** A refusal of the token itself (401) or of its rights (403), in HEC's terms (code 4); anything else as it is. */
export function asSplunkRefusal(err: unknown): unknown {
  if (err instanceof SplunkCredentialError || !(err instanceof AppError) || (err.status !== 401 && err.status !== 403)) return err;
  return new SplunkCredentialError(err.status, 4, `Invalid token: ${err.message}`);
}
