import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTestDatabase } from '../setup/db';
import { waitFor } from '../setup/raw-http';
import { ServiceProcess } from './service';

/**
 * Issue 24 item 18: the first start must not bury its one important line. At the default log
 * level Nest's route table (about 300 lines) is debug output, and the start-up ends with a
 * short block: the URL, the user, and where that user's password is.
 */
describe('what the first start prints (real process, LOG_LEVEL=info, no ADMIN_PASSWORD)', () => {
  let svc: ServiceProcess;

  beforeAll(async () => {
    svc = new ServiceProcess(await createTestDatabase(), { LOG_LEVEL: 'info', ADMIN_PASSWORD: '' });
    await svc.start();
  });
  afterAll(async () => {
    if (svc) await svc.dispose();
  });

  it('ends the start-up with the URL, the user and the password file, after a handful of lines and no route table', async () => {
    await waitFor(() => svc.output.includes('Search service ready'), 'the ready block');
    const lines = svc.output.split('\n');
    const ready = lines.findIndex((l) => l.startsWith('Search service ready'));
    const file = path.join(svc.dataDir, 'admin-password');
    expect(lines.slice(ready, ready + 3)).toEqual([`Search service ready: http://127.0.0.1:${svc.port}/`, '  user:     admin', `  password: in ${file}`]);
    expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // Before it: the generated password's own notice and a few log lines, no route table.
    expect(ready).toBeLessThan(20);
    expect(lines.filter((l) => /Mapped \{|RoutesResolver|RouterExplorer|InstanceLoader/.test(l))).toEqual([]);
    // After it: only the access lines of the requests that checked the service was up.
    const after = lines.slice(ready + 3).filter((l) => l.trim());
    for (const l of after) expect(JSON.parse(l)).toEqual(expect.objectContaining({ req: expect.objectContaining({ url: '/api/test' }) }));
  });
});
