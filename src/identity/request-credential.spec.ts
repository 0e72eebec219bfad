import { AppError } from '../common/errors/app-error';
import { AuthDeclaration } from './auth.types';
import { Credential } from './credentials';
import { CredentialRequest, readCredential } from './request-credential';
import { SplunkCredentialError } from './splunk-credential';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln';
const OTHER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.b3RoZXI';
const SECRET = 'sst_secret';
const ORIGINS = ['https://allowed.example'];

function req(headers: Record<string, string>, opts: { method?: string; path?: string; query?: Record<string, unknown> } = {}): CredentialRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method: opts.method ?? 'GET', path: opts.path ?? '/api/info/whoami', headers: lower, query: opts.query ?? {} } as unknown as CredentialRequest;
}

const read = (r: CredentialRequest, decl: AuthDeclaration = {}): Credential => readCredential(r, decl, ORIGINS);

/** The refusal `read` throws: its status, catalogue code and message (and HEC's code for a Splunk credential). */
function refusal(r: CredentialRequest, decl: AuthDeclaration = {}) {
  try {
    read(r, decl);
  } catch (e) {
    const err = e as AppError;
    return { status: err.status, code: err.code, message: err.message, ...(e instanceof SplunkCredentialError ? { hecCode: e.hecCode } : {}) };
  }
  throw new Error('no refusal');
}

const jwt = (value: string): Credential => ({ kind: 'jwt', jwt: value });
const token = (secret: string): Credential => ({ kind: 'token', secret });
const NONE = { status: 401, code: 'CREDENTIALS_REQUIRED', message: 'Authentication required: send Authorization: Bearer <JWT> or a Service-Token' };
const BOTH = { status: 401, code: 'TOKEN_AND_JWT_SENT', message: 'Send either a Service-Token or an Authorization header, not both' };
const CONSOLE = { 'X-Console': '1', Cookie: `console_signed_in=1; console_session=${JWT}` };

describe('the credential reader', () => {
  it('reads a JWT from Authorization: Bearer', () => {
    expect(read(req({ Authorization: `Bearer ${JWT}` }))).toEqual(jwt(JWT));
    expect(read(req({ Authorization: `bearer   ${JWT}  ` }))).toEqual(jwt(JWT));
    // Another scheme, or no token after it, is no JWT: the JWT's own check says whether it is a bad one.
    expect(refusal(req({ Authorization: `Basic ${JWT}` }))).toEqual(NONE);
    expect(refusal(req({ Authorization: 'Bearer a b' }))).toEqual(NONE);
    expect(read(req({ Authorization: 'Bearer not-a-jwt' }))).toEqual(jwt('not-a-jwt'));
  });

  it('reads an API token from Service-Token, as sent', () => {
    expect(read(req({ 'Service-Token': SECRET }))).toEqual(token(SECRET));
    expect(read(req({ 'Service-Token': '' }))).toEqual(token(''));
  });

  it('reads a Splunk credential on HEC routes only: Authorization: Splunk, else ?token=, the header first', () => {
    const hec: AuthDeclaration = { capability: 'Ingest', credential: 'splunk' };
    expect(read(req({ Authorization: `Splunk ${SECRET}` }), hec)).toEqual(token(SECRET));
    expect(read(req({}, { query: { token: SECRET } }), hec)).toEqual(token(SECRET));
    expect(read(req({ Authorization: `Splunk ${SECRET}` }, { query: { token: 'other' } }), hec)).toEqual(token(SECRET));
    expect(refusal(req({ Authorization: `Bearer ${JWT}` }), hec)).toEqual({
      status: 401,
      code: 'HEC_AUTHORIZATION_INVALID',
      hecCode: 3,
      message: 'Invalid authorization: use "Authorization: Splunk <token>"',
    });
    expect(refusal(req({ 'Service-Token': SECRET }), hec)).toEqual({ status: 401, code: 'HEC_TOKEN_REQUIRED', hecCode: 2, message: 'Token is required' });
    expect(refusal(req({}), hec)).toEqual({ status: 401, code: 'HEC_TOKEN_REQUIRED', hecCode: 2, message: 'Token is required' });
    // Elsewhere `Splunk` is no scheme of the service.
    expect(refusal(req({ Authorization: `Splunk ${SECRET}` }))).toEqual(NONE);
  });

  it("reads the console's session cookie for console requests (X-Console: 1) only", () => {
    expect(read(req(CONSOLE))).toEqual(jwt(JWT));
    expect(read(req(CONSOLE, { method: 'POST', path: '/api/searchctrl' }))).toEqual(jwt(JWT));
    expect(refusal(req({ Cookie: CONSOLE.Cookie }))).toEqual(NONE);
    expect(refusal(req({ ...CONSOLE, 'X-Console': 'true' }))).toEqual(NONE);
  });

  it("reads the console's session cookie for same-origin download links (which cannot carry headers) only", () => {
    const download = (path: string, site: string) => req({ Cookie: CONSOLE.Cookie, 'Sec-Fetch-Site': site }, { path });
    expect(read(download('/api/searchctrl/123/download/csv', 'same-origin'))).toEqual(jwt(JWT));
    expect(refusal(download('/api/searchctrl/123/download/csv', 'cross-site'))).toEqual(NONE);
    expect(refusal(download('/api/searchctrl/123/download/csv', 'same-site'))).toEqual(NONE);
    expect(refusal(download('/api/searchctrl/123', 'same-origin'))).toEqual(NONE);
    expect(refusal(req({ Cookie: CONSOLE.Cookie, 'Sec-Fetch-Site': 'same-origin' }, { method: 'POST', path: '/api/searchctrl/123/download/csv' }))).toEqual(NONE);
  });

  it('reads the token cookie where the route allows it, from this service or a CORS_ORIGINS origin only', () => {
    const cookie = { cookie: true as const, capability: 'SaveSearch' as const };
    const own = { Cookie: `token=${JWT}`, Host: 'svc.example:8080' };
    expect(read(req({ ...own, Origin: 'https://svc.example:8080' }), cookie)).toEqual(jwt(JWT));
    expect(read(req({ ...own, Referer: 'http://svc.example:8080/search' }), cookie)).toEqual(jwt(JWT));
    expect(read(req({ ...own, Origin: 'https://allowed.example' }), cookie)).toEqual(jwt(JWT));
    expect(refusal(req({ ...own, Origin: 'https://evil.example' }), cookie)).toEqual({
      status: 403,
      code: 'CROSS_SITE_REQUEST',
      message: 'Cross-site request refused: origin https://evil.example is not this service',
    });
    expect(refusal(req(own), cookie)).toEqual({ status: 403, code: 'ORIGIN_REQUIRED', message: 'A request authenticated by cookie must carry an Origin or Referer header' });
    // Routes that do not allow it never look at it.
    expect(refusal(req({ ...own, Origin: 'https://svc.example:8080' }))).toEqual(NONE);
  });

  it('takes a malformed cookie for no cookie at all', () => {
    for (const cookie of ['console_session=bad value"', 'console_session=', 'console_session', `console_session=${'a'.repeat(4097)}`, ';;=;', '']) {
      expect(refusal(req({ 'X-Console': '1', Cookie: cookie }))).toEqual(NONE);
    }
    // The first cookie of the name counts, even when a later one would do.
    expect(refusal(req({ 'X-Console': '1', Cookie: `console_session=bad"; console_session=${JWT}` }))).toEqual(NONE);
    expect(read(req({ 'X-Console': '1', Cookie: `other=1;console_session = ${JWT} ; x=y` }))).toEqual(jwt(JWT));
    const fromHere = { Host: 'svc.example', Origin: 'http://svc.example' };
    expect(refusal(req({ ...fromHere, Cookie: 'token=' }), { cookie: true })).toEqual(NONE);
    expect(refusal(req({ ...fromHere, Cookie: `token=${'a'.repeat(4097)}` }), { cookie: true })).toEqual(NONE);
  });

  describe('two credentials at once', () => {
    it('refuses a Service-Token with an Authorization header (a token is never widened by a JWT)', () => {
      expect(refusal(req({ 'Service-Token': SECRET, Authorization: `Bearer ${JWT}` }))).toEqual(BOTH);
      expect(refusal(req({ 'Service-Token': '', Authorization: `Bearer ${JWT}` }))).toEqual(BOTH);
      expect(refusal(req({ 'Service-Token': '', ...CONSOLE }))).toEqual(BOTH);
    });

    it("leaves the console's cookie aside for a request's own Authorization or Service-Token", () => {
      expect(read(req({ ...CONSOLE, Authorization: `Bearer ${OTHER}` }))).toEqual(jwt(OTHER));
      expect(read(req({ ...CONSOLE, 'Service-Token': SECRET }))).toEqual(token(SECRET));
      expect(refusal(req({ ...CONSOLE, Authorization: 'Basic x' }))).toEqual(NONE);
    });

    it("leaves the token cookie aside for Authorization, Service-Token or the console's cookie", () => {
      const decl: AuthDeclaration = { cookie: true };
      // No Origin: the token cookie, were it read, would be refused with 403.
      const cookies = `token=${OTHER}; console_session=${JWT}`;
      expect(read(req({ Cookie: cookies, Authorization: `Bearer ${JWT}` }), decl)).toEqual(jwt(JWT));
      expect(read(req({ Cookie: cookies, 'Service-Token': SECRET }), decl)).toEqual(token(SECRET));
      expect(read(req({ Cookie: cookies, 'X-Console': '1' }), decl)).toEqual(jwt(JWT));
      // A malformed console cookie leaves the token cookie to be read, and checked.
      expect(refusal(req({ Cookie: `token=${OTHER}; console_session=bad"`, 'X-Console': '1' }), decl)).toMatchObject({ status: 403, code: 'ORIGIN_REQUIRED' });
    });
  });
});
