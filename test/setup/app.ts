import { INestApplication } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from 'node:http';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { JsonNullExpressAdapter } from '../../src/common/http/json-null.adapter';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/env.schema';
import { createTestDatabase } from './db';

export const ADMIN_PASSWORD = 'admin-test-password';

export interface TestApp {
  app: INestApplication;
  http: Server;
  config: AppConfig;
  databaseUrl: string;
  close(): Promise<void>;
}

/** Test configuration: the service's defaults with cheap bcrypt, silent logs and a temp DATA_DIR. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'search-test-data-'));
  return {
    // Test data is dated from 2000 on: a retention of a century keeps it inside the ingest window.
    ...loadConfig({ ADMIN_PASSWORD, JWT_SECRET: 'test-secret-test-secret-test-secret!', BCRYPT_ROUNDS: '4', LOG_LEVEL: 'silent', DATA_DIR: dataDir, RETENTION_DAYS: '36500' }),
    ...overrides,
  };
}

/**
 * The real app on its own fresh database (cloned from the migrated template). Pass `databaseUrl`
 * and `overrides.dataDir` to start it again on the same data (a restart); a data directory the
 * caller passed in is left in place on close.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  databaseUrl?: string,
  /** Replaces providers before the app starts (e.g. the scheduler's clock). */
  customize: (b: TestingModuleBuilder) => TestingModuleBuilder = (b) => b,
): Promise<TestApp> {
  const url = databaseUrl ?? (await createTestDatabase());
  const config = testConfig(overrides);
  const moduleRef = await customize(Test.createTestingModule({ imports: [AppModule.forRoot({ ...config, databaseUrl: url })] })).compile();
  const app = moduleRef.createNestApplication(new JsonNullExpressAdapter(), { bodyParser: false });
  configureApp(app, config);
  await app.init();
  return {
    app,
    http: app.getHttpServer() as Server,
    config,
    databaseUrl: url,
    async close() {
      await app.close();
      if (!overrides.dataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
