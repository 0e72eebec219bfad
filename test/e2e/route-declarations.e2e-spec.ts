import { Controller, Get, Post } from '@nestjs/common';
import { Auth, Public } from '../../src/identity/auth.decorators';
import { GRANTING } from '../../src/identity/capabilities';
import { createTestApp, TestApp } from '../setup/app';
import { describeDeclaration, routesOfControllers, routeTable } from '../setup/route-table';

/**
 * Deny by default, made visible: every controller route of the real app must declare
 * `@Public()` or `@Auth(...)`, and the snapshot of route -> declaration shows every change of
 * who may call what (including which capability an API token needs) in review.
 * After adding or changing routes, regenerate with `npx jest test/e2e/route-declarations -u`.
 */
describe('route declarations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finds the routes of the real app', () => {
    const routes = routeTable(t.app);
    const lines = routes.map((r) => `${r.method} ${r.path}`);
    expect(lines).toEqual(expect.arrayContaining(['POST /api/login', 'GET /api/users', 'GET /api/groups/:id/members', 'POST /api/tokens', 'DELETE /api/tokens/:id']));
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('GRANTING lists exactly the capabilities that routes and websockets check', () => {
    const used = new Set<string>(['Search', 'AttachSearch', 'Stats']); // websocket routes (src/ws)
    for (const r of routeTable(t.app)) if (r.declaration?.capability) used.add(r.declaration.capability);
    expect([...GRANTING].sort()).toEqual([...used].sort());
  });

  it('every route handler declares @Public() or @Auth()', () => {
    const undeclared = routeTable(t.app)
      .filter((r) => !r.declaration)
      .map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(undeclared).toEqual([]);
  });

  it('no route mixes public with an @Auth option, or admin with a token capability', () => {
    const odd = routeTable(t.app)
      .filter(
        (r) => r.declaration && ((r.declaration.public && Object.keys(r.declaration).length > 1) || (r.declaration.admin && (r.declaration.capability || r.declaration.anyToken))),
      )
      .map((r) => `${r.method} ${r.path}`);
    expect(odd).toEqual([]);
  });

  it('matches the snapshot of route -> declaration', () => {
    const table = routeTable(t.app).map((r) => `${r.method} ${r.path} -> ${describeDeclaration(r.declaration)}`);
    expect(table).toMatchSnapshot();
  });

  it('the walker reports an undeclared handler and reads class-level declarations', () => {
    @Controller('probe')
    class ProbeController {
      @Get('open') @Public() open(): void {}
      @Post('forgotten') forgotten(): void {}
    }
    @Controller('probe2')
    @Auth({ capability: 'ListUsers' })
    class ClassLevelController {
      @Get() list(): void {}
      @Get('admin') @Auth({ admin: true }) admin(): void {}
    }
    const table = routesOfControllers([ProbeController, ClassLevelController]).map((r) => `${r.method} ${r.path} -> ${describeDeclaration(r.declaration)}`);
    expect(table).toEqual(['POST /probe/forgotten -> UNDECLARED', 'GET /probe/open -> public', 'GET /probe2 -> capability:ListUsers', 'GET /probe2/admin -> admin']);
  });
});
