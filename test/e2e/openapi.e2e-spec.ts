import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createGroup, createUser, Headers } from '../setup/auth';
import { createToken } from '../setup/tokens';

interface OpenApiOp {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  [k: string]: unknown;
}

/** GET routes whose real 200 bodies must validate against the document. */
const SCHEMA_CHECKED_GETS = [
  '/api/users',
  '/api/groups',
  '/api/info/whoami',
  '/api/tokens',
  '/api/dashboards',
  '/api/library',
  '/api/searchctrl',
  '/api/settings',
  '/api/version',
  '/api/notifications',
];

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every route the app serves, as `METHOD /openapi/{style}` strings. */
function appRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  const out: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    const path = layer.route.path.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '') || '/';
    if (path.includes('*')) continue; // the framework's catch-all for unknown paths
    for (const m of Object.keys(layer.route.methods)) if (METHODS.includes(m)) out.push(`${m.toUpperCase()} ${path}`);
  }
  return [...new Set(out)].filter((r) => !r.includes('/api/docs'));
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, OpenApiOp>> };

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.http).get('/api/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('documents every route the app serves', () => {
    const routes = appRoutes(t).filter((r) => !r.endsWith('/api/openapi.json'));
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((r) => {
      const [method, path] = r.split(' ');
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it('documents the optional boolean admin flag of GET /api/dashboards (read by a pipe, not a query DTO)', () => {
    expect(doc.paths['/api/dashboards'].get.parameters).toEqual([expect.objectContaining({ name: 'admin', in: 'query', required: false, schema: { type: 'boolean' } })]);
  });

  it('states the access rule and token capability of every operation', () => {
    const undeclared: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['public', 'user', 'admin'].includes(op['x-access'] as string)) undeclared.push(`${method} ${path}`);
        if (op['x-access'] === 'user' && op.security === undefined) undeclared.push(`${method} ${path} (no security)`);
        // Public on purpose: an empty requirement list, not a missing one (issue 24, item 19).
        if (op['x-access'] === 'public' && !(Array.isArray(op.security) && op.security.length === 0)) undeclared.push(`${method} ${path} (public without security: [])`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});

describe('OpenAPI response schemas match real GET bodies', () => {
  let t: TestApp;
  let admin: Headers;
  let doc: { paths: Record<string, Record<string, OpenApiOp>>; components?: { schemas?: Record<string, object> } };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    const user = await createUser(t.http, admin);
    await createGroup(t.http, admin);
    await createToken(t.http, user.headers, ['Search']);
    await createToken(t.http, admin, ['Search']);
    await request(t.http).post('/api/notifications/broadcast').set(admin).send({ Msg: 'hello', Level: 'info', Link: 'https://example.com' }).expect(200);
    doc = (await request(t.http).get('/api/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  /** The declared 200 JSON schema of `GET path`, with `$ref`s resolving against components.schemas. */
  function validator(path: string): ValidateFunction {
    const op = doc.paths[path]?.get;
    const schema = op?.responses?.['200']?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`GET ${path} declares no 200 JSON schema`);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: doc.components ?? {} }, 'doc');
    const rewrite = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(rewrite)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' ? `doc${x}` : rewrite(x)]))
          : v;
    return ajv.compile(rewrite(schema) as object);
  }

  it.each(SCHEMA_CHECKED_GETS)('GET %s answers a body matching its declared 200 schema', async (path) => {
    const res = await request(t.http).get(path).set(admin);
    expect(res.status).toBe(200);
    const validate = validator(path);
    const ok = validate(res.body);
    expect(ok ? [] : validate.errors).toEqual([]);
  });
});
