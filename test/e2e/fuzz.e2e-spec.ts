import fc from 'fast-check';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, login, TestUser } from '../setup/auth';
import { errorBody, requestErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/**
 * Hostile-input fuzzer driven by the OpenAPI document: every operation gets generated requests
 * (wrong types, missing/extra fields, huge and unicode strings, invalid JSON, bad multipart, bad
 * query strings, hostile path parameters) as admin, a normal user, a token holding only
 * `DashboardRead`, and nobody. Asserted for every answer: no 5xx, every 4xx has `{"Error": string}`,
 * and the authorization model:
 *  - no credentials on a non-public operation: 401;
 *  - the token on an admin operation or one whose `x-capability` it lacks: 403 (401 accepted
 *    where the token itself is refused first);
 *  - a JWT on an operation that takes only a Splunk credential (`x-credential`, HEC): 401; the
 *    token is sent there as `Authorization: Splunk <token>`;
 *  - the normal user on an admin operation: 403. The global guard runs BEFORE validation, so the
 *    answer does not depend on the input; only what Express does before Nest's guard (JSON/form
 *    body parsing: 400/413/415; undecodable `%` escapes in the path: 400) may answer first.
 * Fixed seed (FUZZ_SEED overrides); failures print the seed, operation and request.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS_PER_OP = Number(process.env.FUZZ_RUNS ?? 24);
const TOKEN_CAP = 'DashboardRead';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}
interface Operation {
  method: Method;
  path: string;
  access: 'public' | 'user' | 'admin';
  capability?: string;
  /** `splunk`: the route takes only an API token, as `Authorization: Splunk <token>` (HEC). */
  credential?: string;
  queryNames: string[];
  bodyFields: string[];
}
type Who = 'admin' | 'user' | 'token' | 'none';
type BodyKind = 'none' | 'json' | 'fields' | 'badjson' | 'multipart' | 'badmultipart' | 'form' | 'text';
interface Req {
  who: Who;
  params: string[];
  query: string;
  body: { kind: BodyKind; payload?: string | object | unknown; contentType?: string };
}

// ---- value generators -------------------------------------------------------------------

/** encodeURIComponent that survives lone surrogates (they become U+FFFD). */
const enc = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

/** Path parameter values, already URL-safe (raw hostile escapes, or encoded generated text). */
const rawPathHostile = fc.constantFrom(
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%2500',
  '%zz',
  '%',
  '%C0%AE',
  '0',
  '-1',
  '-0',
  '00',
  '1e308',
  'NaN',
  'Infinity',
  '0x10',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '%20',
  '%0A',
  'null',
  'undefined',
  'true',
);
const uuidLike = fc.oneof(
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid(),
  fc.uuid().map((u) => u.replace(/-/g, '')),
  fc.uuid().map((u) => u + 'x'),
  fc.uuid().map((u) => `{${u}}`),
  fc.constant('00000000-0000-0000-0000-000000000000'),
  fc.stringMatching(/^[0-9a-fA-FgG-]{30,40}$/),
);
const pathParam = fc.oneof(
  rawPathHostile,
  uuidLike.map(enc),
  fc
    .string({ unit: 'binary', maxLength: 40 })
    .filter((s) => s.length > 0)
    .map(enc),
  fc
    .bigInt({ min: -(10n ** 30n), max: 10n ** 30n })
    .filter((n) => n < 1n || n > 10000n)
    .map(String),
  fc.string({ minLength: 2000, maxLength: 3000, unit: 'grapheme-ascii' }).map(enc),
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.string({ minLength: 10000, maxLength: 70000, unit: 'grapheme-ascii' }),
  fc.constantFrom('', ' ', '../../etc/passwd', '%00', '\u0000', '\ud800', 'true', '1', '-1', '💥'.repeat(500), 'a'.repeat(100000), '<script>', "' OR 1=1 --", 'tag=x grep y'),
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  uuidLike,
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.array(fc.integer(), { minLength: 1000, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), hostileScalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

const COMMON_QUERY = ['admin', 'start', 'end', 'duration', 'format', 'bytes', 'tag', 'refine', 'sid', 'token', 'limit', 'offset', 'id', 'uid', 'gid'];
function queryArb(names: string[]): fc.Arbitrary<string> {
  const keys = fc.constantFrom(...new Set([...names, ...COMMON_QUERY, '__proto__', 'constructor', 'a[b][c]', 'x[]']));
  const value = fc.oneof(
    hostileScalar.map((v) => enc(typeof v === 'string' ? v.slice(0, 3000) : (JSON.stringify(v) ?? ''))),
    fc.constantFrom('true', 'false', 'TRUE', '1', '0', 'yes', '', '%zz', '%', '-1', '1e999', '2024-13-45T99:99:99Z', 'now'),
  );
  return fc.array(fc.tuple(keys, value), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${v}`).join('&'));
}

function bodyArb(fields: string[]): fc.Arbitrary<Req['body']> {
  const fieldObj = fc
    .tuple(
      fc.subarray(fields.length ? fields : ['Name'], {}),
      fc.array(hostileValue, { minLength: fields.length || 1, maxLength: fields.length || 1 }),
      fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 3 }),
    )
    .map(([keys, values, extra]) => ({ ...extra, ...Object.fromEntries(keys.map((k, i) => [k, values[i]])) }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: hostileValue.map((payload) => ({ kind: 'json' as const, payload })) },
    { weight: 5, arbitrary: fieldObj.map((payload) => ({ kind: 'fields' as const, payload })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":',
          '[1,',
          'nul',
          '{"a":1}}',
          "{'a':1}",
          '{"__proto__":{"isAdmin":true}}',
          '\u0000',
          '"\\ud800"',
          '['.repeat(5000),
          '{"a":' + '1'.repeat(400) + '}',
          '',
        )
        .map((payload) => ({ kind: 'badjson' as const, payload, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('file', 'other', 'meta', ''), fc.string({ unit: 'binary', maxLength: 200 }))
        .map(([name, content]) => ({ kind: 'multipart' as const, payload: { name, content } })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          ['multipart/form-data', '--x\r\n'],
          ['multipart/form-data; boundary=XYZ', 'garbage without boundary'],
          ['multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated'],
          ['multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XYZ--\r\n'],
          ['multipart/form-data; boundary=' + 'B'.repeat(300), '--'],
        )
        .map(([contentType, payload]) => ({ kind: 'badmultipart' as const, payload, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('a=1&b=%zz', 'User=admin&Pass=', '%%%', 'x[y][z][w]=1', '='.repeat(1000))
        .map((payload) => ({ kind: 'form' as const, payload, contentType: 'application/x-www-form-urlencoded' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('text/plain', 'application/xml', 'application/octet-stream', 'application/json; charset=utf-16', 'x/y; ;;'),
          fc.string({ unit: 'binary', maxLength: 100 }),
        )
        .map(([contentType, payload]) => ({ kind: 'text' as const, payload, contentType })),
    },
  );
}

// ---- the model ---------------------------------------------------------------------------

const decodable = (p: string) => {
  try {
    decodeURIComponent(p);
    return true;
  } catch {
    return false;
  }
};

function expectedStatuses(op: Operation, r: Req): number[] | undefined {
  // What Express does before Nest's guard: body parsing and path-parameter decoding.
  const preGuard = [400, 413, 415];
  const parsedFirst = ['badjson', 'form'].includes(r.body.kind) || /json|urlencoded/i.test(r.body.contentType ?? '') || r.params.some((p) => !decodable(p));
  const allow = (s: number[]) => (parsedFirst ? [...s, ...preGuard] : s);
  if (op.access === 'public') return undefined;
  if (r.who === 'none') return allow([401]);
  if (r.who === 'user' && op.access === 'admin') return allow([403]);
  // A Splunk credential route refuses JWTs (they are not API tokens).
  if (op.credential === 'splunk' && (r.who === 'admin' || r.who === 'user')) return allow([401]);
  if (r.who === 'token' && (op.access === 'admin' || (op.capability !== 'any' && op.capability !== TOKEN_CAP))) return allow([403, 401]);
  return undefined;
}

describe('hostile input fuzzer (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let user: TestUser;
  let spareUser: TestUser;
  let spareAdmin: TestUser;
  let token: Headers;
  let ops: Operation[];

  const headersFor = async (who: Who, op: Operation): Promise<Headers> => {
    // Logout and session routes end sessions (DELETE /api/logout: all of the account's): use
    // spare accounts of the same kind for them.
    const disposable = /logout|sessions/.test(op.path);
    if (who === 'admin') return disposable ? login(t.http, spareAdmin.name, spareAdmin.password) : admin;
    if (who === 'user') return disposable ? login(t.http, spareUser.name, spareUser.password) : user.headers;
    if (who === 'token') return op.credential === 'splunk' ? { Authorization: `Splunk ${token['Service-Token']}` } : token;
    return {};
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    user = await createUser(t.http, admin, { prefix: 'fuzz' });
    spareUser = await createUser(t.http, admin, { prefix: 'spare' });
    spareAdmin = await createUser(t.http, admin, { prefix: 'spareadmin', admin: true });
    token = (await createToken(t.http, user.headers, [TOKEN_CAP])).headers;
    const doc = (await request(t.http).get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components?.schemas?.[s.$ref.split('/').pop()!] : s);
    ops = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const params = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
        const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ?? {};
        const schema = resolve(Object.values(content)[0]?.schema);
        const items = schema?.type === 'array' ? resolve(schema.items) : undefined;
        ops.push({
          method: method as Method,
          path,
          access: op['x-access'] as Operation['access'],
          capability: op['x-capability'] as string | undefined,
          credential: op['x-credential'] as string | undefined,
          queryNames: params.filter((p) => p.in === 'query').map((p) => p.name),
          bodyFields: Object.keys((items ?? schema)?.properties ?? {}),
        });
      }
    }
  });
  afterAll(() => t?.close());

  it('answers hostile requests to every documented operation with 4xx {Error} and the right authorization status, never 5xx', async () => {
    expect(ops.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let sent = 0;
    const t0 = Date.now();
    const only = process.env.FUZZ_OPS ? new RegExp(process.env.FUZZ_OPS) : undefined;
    for (const [i, op] of ops.entries()) {
      if (only && !only.test(`${op.method.toUpperCase()} ${op.path}`)) continue;
      const paramNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const arb = fc.record({
        who: fc.constantFrom<Who>('admin', 'user', 'token', 'none'),
        params: fc.array(pathParam, { minLength: paramNames.length, maxLength: paramNames.length }),
        query: queryArb(op.queryNames),
        body: bodyArb(op.bodyFields),
      });
      const details = await fc.check(
        fc.asyncProperty(arb, async (r: Req) => {
          let k = 0;
          const path = op.path.replace(/\{\w+\}/g, () => r.params[k++]);
          const url = r.query ? `${path}?${r.query}` : path;
          let req = request(t.http)
            [op.method](url)
            .set(await headersFor(r.who, op))
            .timeout(15000);
          if (r.body.kind === 'json' || r.body.kind === 'fields') req = req.set('Content-Type', 'application/json').send(JSON.stringify(r.body.payload ?? null));
          else if (r.body.kind === 'multipart') {
            const p = r.body.payload as { name: string; content: string };
            req = p.name ? req.attach(p.name, Buffer.from(p.content), 'x.bin') : req.field('x', p.content || 'y');
          } else if (r.body.kind !== 'none') req = req.set('Content-Type', r.body.contentType!).send(r.body.payload as string);
          const what = `${op.method.toUpperCase()} ${url.slice(0, 300)} as ${r.who} (${r.body.kind} ${JSON.stringify(r.body.payload ?? '').slice(0, 150)})`;
          const res = await req.catch((e: Error) => {
            throw new Error(`no answer (${e.message}): ${what}`);
          });
          sent++;
          const where = `${what}: ${res.status} ${String(res.text).slice(0, 200)}`;
          if (res.status >= 500) throw new Error(`5xx: ${where}`);
          // 431: Node's HTTP parser refuses an oversized request line before any app code runs;
          // the server's clientError handler still answers with an {Error} body.
          if (res.status >= 400 && typeof (res.body as { Error?: unknown })?.Error !== 'string') throw new Error(`4xx without {Error}: ${where}`);
          if (res.status === 431) return; // refused by the HTTP parser before any authorization
          const want = expectedStatuses(op, r);
          if (want && !want.includes(res.status)) throw new Error(`authorization: wanted ${want.join('/')}: ${where}`);
        }),
        { seed: SEED + i, numRuns: RUNS_PER_OP, endOnFailure: true },
      );
      // The shared sessions must survive every operation (else later authorization checks lie).
      if ((await request(t.http).get('/api/info/whoami').set(user.headers)).status !== 200) {
        failures.push(`the normal user's session ended during ${op.method.toUpperCase()} ${op.path}`);
        user.headers = await login(t.http, user.name, user.password);
      }
      if ((await request(t.http).get('/api/info/whoami').set(admin)).status !== 200) {
        failures.push(`the admin's session ended during ${op.method.toUpperCase()} ${op.path}`);
        admin = await asAdmin(t.http);
      }
      if (details.failed) failures.push(`seed ${SEED + i} (FUZZ_SEED=${SEED}): ${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}`);
    }
    // eslint-disable-next-line no-console -- FUZZ_VERBOSE asks for this line on the terminal
    if (process.env.FUZZ_VERBOSE) console.log(`fuzz: ${ops.length} operations, ${sent} requests, ${Date.now() - t0} ms`);
    expect(failures).toEqual([]);
    // Still alive and sane afterwards.
    expect((await request(t.http).get('/api/test')).status).toBe(200);
    expect((await request(t.http).get('/api/info/whoami').set(user.headers)).status).toBe(200);
  }, 300000);

  // Regression, found by this fuzzer (FUZZ_SEED=777 FUZZ_RUNS=60): any multipart body WITH a `file`
  // part never got an answer, because blob-store `receive()` awaited `fh.close()` on a FileHandle
  // still held by a write stream created with `autoClose: false`.
  it('answers a multipart upload with a file part (no hang) on resources and files', async () => {
    const created = await request(t.http).post('/api/resources').set(admin).send({ ResourceName: 'fuzz-hang', Description: 'x' });
    const guid = created.body.GUID as string;
    const up = await request(t.http).put(`/api/resources/${guid}/raw`).set(admin).attach('file', Buffer.from('abc'), 'a.bin').timeout(5000);
    expect(up.status).toBe(200);
    const bad = await request(t.http).post('/api/files/not-a-uuid').set(user.headers).attach('file', Buffer.from('abc'), 'a.bin').timeout(5000);
    expect([bad.status, bad.body]).toEqual([400, errorBody(requestErrors.invalidUuid('not-a-uuid'), 'INVALID_UUID')]);
  }, 15000);
});
