import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { mountConsole } from './console/console.setup';
import { JsonNullExpressAdapter } from './common/http/json-null.adapter';
import { ConfigError, loadConfig } from './config/env.schema';
import { enableLinearRegexpFallback } from './query/regexp-safety';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres';
import { ensureDatabase } from './database/ensure-database';
import { RequestDrain } from './common/lifecycle/request-drain';
import { WsHub } from './ws/ws-hub.service';
import { nestLogLevels, printAfterLogs, readyBlock } from './common/http/startup-log';
import { AppLogger } from './common/logging/app-logger';
import { AddressInfo } from 'node:net';

async function main(): Promise<void> {
  enableLinearRegexpFallback(); // before any user pattern is compiled, in any thread
  const config = loadConfig(process.env);
  // Until the app's own logger takes over, Nest's prints at LOG_LEVEL too (not PostgreSQL's initdb at debug).
  NestLogger.overrideLogger(nestLogLevels(config.logLevel));
  const log = new NestLogger('Main');
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    log.log(`starting embedded PostgreSQL under ${config.dataDir}`);
    embedded = await startEmbeddedPostgres({ dir: config.dataDir, home: config.embeddedPgHome, log: (l) => log.debug?.(l) });
    databaseUrl = await ensureDatabase(embedded.url, 'search');
  }
  let app: NestExpressApplication | undefined;
  let drain: RequestDrain | undefined;
  let stopping = false;
  // Graceful: stop accepting, let requests in flight finish (bounded), close websockets with a
  // close frame, then the pools, then PostgreSQL. A committed batch is always answered.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log(`${signal}: shutting down, waiting at most ${config.shutdownDrainMs} ms for ${drain?.pending ?? 0} request(s) in flight`);
    let code = 0;
    try {
      app?.get(WsHub).closeAll();
      if (drain && !(await drain.drain(config.shutdownDrainMs))) log.warn(`${drain.pending} request(s) still running after ${config.shutdownDrainMs} ms; closing anyway`);
      await app?.close();
    } catch (err) {
      code = 1;
      log.error(`shutdown: ${(err as Error)?.stack ?? String(err)}`);
    } finally {
      await embedded?.stop();
      process.exit(code);
    }
  };
  // A stray rejected promise (a background task racing a database outage, say) is a bug to log,
  // not a reason to drop every client's connection.
  process.on('unhandledRejection', (reason) => log.error(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...config, databaseUrl }), new JsonNullExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
    });
    configureApp(app, config);
    mountConsole(app);
    drain = new RequestDrain(app.getHttpServer());
    await app.listen(config.port, config.host);
    const port = (app.getHttpServer().address() as AddressInfo).port;
    log.log(`listening on http://${config.host}:${port}`);
    // The start-up's last words, for the person who ran it: where to go and how to sign in.
    if (config.logLevel !== 'silent')
      printAfterLogs(app.get(AppLogger).root, readyBlock({ host: config.host, port, dataDir: config.dataDir, adminPasswordSet: !!config.adminPassword }));
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
