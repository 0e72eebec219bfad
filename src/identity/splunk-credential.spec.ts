import { AppError, refusal as refused } from '../common/errors/app-error';
import { AuthedRequest } from './auth.decorators';
import { asSplunkRefusal, splunkSecret, SplunkCredentialError } from './splunk-credential';

const req = (authorization?: string, token?: unknown): AuthedRequest =>
  ({ headers: authorization === undefined ? {} : { authorization }, query: token === undefined ? {} : { token } }) as unknown as AuthedRequest;

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    const err = e as SplunkCredentialError;
    return { status: err.status, code: err.hecCode, Code: err.code, message: err.message };
  }
};

describe('Splunk credential', () => {
  it('takes the token from `Authorization: Splunk <token>`, else from ?token=', () => {
    expect(splunkSecret(req('Splunk abc'))).toBe('abc');
    expect(splunkSecret(req('splunk   abc  '))).toBe('abc');
    expect(splunkSecret(req(undefined, 'q'))).toBe('q');
    expect(splunkSecret(req('Splunk h', 'q'))).toBe('h');
  });

  it('refuses other schemes (HEC code 3) and a missing token (code 2) with 401', () => {
    const invalid = { status: 401, code: 3, Code: 'HEC_AUTHORIZATION_INVALID', message: 'Invalid authorization: use "Authorization: Splunk <token>"' };
    expect(refusal(() => splunkSecret(req('Bearer abc')))).toEqual(invalid);
    expect(refusal(() => splunkSecret(req('Splunk')))).toEqual(invalid);
    expect(refusal(() => splunkSecret(req('Splunk a b')))).toEqual(invalid);
    const missing = { status: 401, code: 2, Code: 'HEC_TOKEN_REQUIRED', message: 'Token is required' };
    expect(refusal(() => splunkSecret(req()))).toEqual(missing);
    expect(refusal(() => splunkSecret(req(undefined, '')))).toEqual(missing);
    expect(refusal(() => splunkSecret(req(undefined, ['a', 'b'])))).toEqual(missing);
  });

  it('turns refusals of the token or its rights into HEC code 4, and leaves other errors alone', () => {
    const r401 = asSplunkRefusal(refused('UNKNOWN_API_TOKEN')) as SplunkCredentialError;
    expect([r401.status, r401.hecCode, r401.code, r401.message]).toEqual([401, 4, 'HEC_TOKEN_INVALID', 'Invalid token: Unknown API token']);
    const r403 = asSplunkRefusal(refused('API_TOKEN_LACKS_CAPABILITY', 'Ingest')) as SplunkCredentialError;
    expect([r403.status, r403.hecCode, r403.code, r403.message]).toEqual([403, 4, 'HEC_TOKEN_FORBIDDEN', 'Invalid token: API token lacks the Ingest capability']);
    const own = new SplunkCredentialError(2, refused('HEC_TOKEN_REQUIRED'));
    expect(asSplunkRefusal(own)).toBe(own);
    const busy = new AppError(503, 'Too many password checks');
    expect(asSplunkRefusal(busy)).toBe(busy);
    const bug = new Error('boom');
    expect(asSplunkRefusal(bug)).toBe(bug);
  });
});
