import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';

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
  let doc: { paths: Record<string, Record<string, Record<string, unknown>>> };

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

  it('states the access rule and token capability of every operation', () => {
    const undeclared: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['public', 'user', 'admin'].includes(op['x-access'] as string)) undeclared.push(`${method} ${path}`);
        if (op['x-access'] === 'user' && op.security === undefined) undeclared.push(`${method} ${path} (no security)`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
