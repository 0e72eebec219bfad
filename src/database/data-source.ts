import { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { loadMigrations } from './migrations';
import { SnakeNamingStrategy } from './naming.strategy';

type PoolConfig = Pick<AppConfig, 'dbPoolSize' | 'dbConnectTimeoutMs' | 'dbStatementTimeoutMs'>;

/** Pool settings shared by the app's data source and the indexer pools. */
export function pgPoolOptions(c: PoolConfig) {
  return {
    max: c.dbPoolSize,
    connectionTimeoutMillis: c.dbConnectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: c.dbStatementTimeoutMs,
    query_timeout: c.dbStatementTimeoutMs + 5_000,
    keepAlive: true,
  };
}

/** The service's data source: migrations only (run at start-up), never `synchronize`. */
export function typeOrmOptions(url: string, c: PoolConfig): TypeOrmModuleOptions {
  return {
    type: 'postgres',
    url,
    autoLoadEntities: true,
    migrations: loadMigrations(),
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    retryAttempts: 3,
    retryDelay: 1000,
    extra: pgPoolOptions(c),
    logging: false,
  };
}
