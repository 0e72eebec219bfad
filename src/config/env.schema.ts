import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from './app-config';
import { defaultMaxConnections } from '../common/http/descriptor-limit';

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const MiB = 1024 * 1024;

function int(env: Env, name: string, def: number, min: number, max: number, errors: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    errors.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
    return def;
  }
  return n;
}

function bool(env: Env, name: string, def: boolean, errors: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  errors.push(`${name} must be true or false (got "${raw}")`);
  return def;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `a=b,c=d` pairs (a sourcetype-to-tag map, for example). */
function map(env: Env, name: string, errors: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of list(env, name)) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      errors.push(`${name} must be a comma-separated list of key=value pairs (got "${pair}")`);
      continue;
    }
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** Every variable, its default, and its bounds. `.env.example` mirrors this list. */
export function loadConfig(env: Env): AppConfig {
  const errors: string[] = [];
  const cfg: AppConfig = {
    port: int(env, 'PORT', 8080, 0, 65535, errors),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: optional(env, 'DATABASE_URL'),
    embeddedPgHome: path.resolve(env.EMBEDDED_PG_HOME || '/var/lib/search-service'),
    indexerUrls: list(env, 'INDEXER_URLS'),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    jwtSecret: optional(env, 'JWT_SECRET'),
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 86400, 60, 30 * 86400, errors),
    bcryptRounds: int(env, 'BCRYPT_ROUNDS', 12, 4, 15, errors),
    bcryptConcurrency: int(env, 'BCRYPT_CONCURRENCY', Math.max(1, os.availableParallelism() - 1), 1, 256, errors),
    logLevel: env.LOG_LEVEL || 'info',
    maxJsonBody: int(env, 'MAX_JSON_BODY', 4 * MiB, 1024, 512 * MiB, errors),
    maxResourceSize: int(env, 'MAX_RESOURCE_SIZE', 64 * MiB, 1, 16 * 1024 * MiB, errors),
    lookupMaxBytes: int(env, 'LOOKUP_MAX_BYTES', 32 * MiB, 1, 1024 * MiB, errors),
    maxFileSize: int(env, 'MAX_FILE_SIZE', 4 * MiB, 1, 1024 * MiB, errors),
    maxPlaybookSize: int(env, 'MAX_PLAYBOOK_SIZE', MiB, 1, 64 * MiB, errors),
    loginMaxFailuresPerAccount: int(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1000, errors),
    loginMaxFailuresPerAddress: int(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 100000, errors),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900, 1, 86400, errors),
    corsOrigins: list(env, 'CORS_ORIGINS'),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 20, 1, 1000, errors),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 5000, 100, 600000, errors),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 30000, 100, 86400000, errors),
    tokensForNonAdmins: bool(env, 'TOKENS_FOR_NON_ADMINS', true, errors),
    maxTokensPerUser: int(env, 'MAX_TOKENS_PER_USER', 100, 1, 100000, errors),
    retentionDays: int(env, 'RETENTION_DAYS', 30, 1, 36500, errors),
    compactionIntervalMs: int(env, 'COMPACTION_INTERVAL_MS', 10000, 0, 86400000, errors),
    maxIngestBatchBytes: int(env, 'MAX_INGEST_BATCH_BYTES', 32 * MiB, 1024, 1024 * MiB, errors),
    maxIngestEntries: int(env, 'MAX_INGEST_ENTRIES', 100000, 1, 10000000, errors),
    ingestMaxFutureDays: int(env, 'INGEST_MAX_FUTURE_DAYS', 1, 0, 3650, errors),
    maxNewPartitionsPerRequest: int(env, 'MAX_NEW_PARTITIONS_PER_REQUEST', 32, 1, 100000, errors),
    maxNewTagsPerRequest: int(env, 'MAX_NEW_TAGS_PER_REQUEST', 100, 1, 32767, errors),
    maxTagsPerUser: int(env, 'MAX_TAGS_PER_USER', 1000, 1, 32767, errors),
    searchTimeoutMs: int(env, 'SEARCH_TIMEOUT_MS', 300000, 100, 86400000, errors),
    scheduledSearchesPerUser: int(env, 'SCHEDULED_SEARCHES_PER_USER', 100, 0, 100_000, errors),
    scheduleMinIntervalSeconds: int(env, 'SCHEDULE_MIN_INTERVAL_SECONDS', 60, 60, 86_400, errors),
    scheduleBackfillMaxSlots: int(env, 'SCHEDULE_BACKFILL_MAX_SLOTS', 100, 1, 100_000, errors),
    scheduledResultsKeepHours: int(env, 'SCHEDULED_RESULTS_KEEP_HOURS', 168, 1, 24 * 3650, errors),
    schedulerTickMs: int(env, 'SCHEDULER_TICK_MS', 1000, 100, 60_000, errors),
    scheduleRunLeaseSeconds: int(env, 'SCHEDULE_RUN_LEASE_SECONDS', 600, 5, 86_400, errors),
    scheduleRecoverySeconds: int(env, 'SCHEDULE_RECOVERY_SECONDS', 60, 1, 3600, errors),
    scanParallelism: int(env, 'SEARCH_SCAN_PARALLELISM', Math.min(4, os.availableParallelism()), 1, 64, errors),
    maxSearchesPerUser: int(env, 'MAX_SEARCHES_PER_USER', 16, 1, 10000, errors),
    searchConcurrency: int(env, 'SEARCH_CONCURRENCY', Math.max(4, 2 * os.availableParallelism()), 1, 1024, errors),
    searchConcurrencyPerUser: int(env, 'SEARCH_CONCURRENCY_PER_USER', 2, 1, 1024, errors),
    searchQueue: int(env, 'SEARCH_QUEUE', 32, 0, 100000, errors),
    searchLongConcurrency: int(env, 'SEARCH_LONG_CONCURRENCY', 0, 0, 1024, errors),
    searchDemoteAfterMs: int(env, 'SEARCH_DEMOTE_AFTER_MS', 1000, 0, 86400000, errors),
    importMaxPerMinute: int(env, 'IMPORT_MAX_PER_MINUTE', 30, 1, 100000, errors),
    refusalBrakeMax: int(env, 'REFUSAL_BRAKE_MAX', 20, 1, 1_000_000, errors),
    refusalBrakeDelayMs: int(env, 'REFUSAL_BRAKE_DELAY_MS', 1000, 0, 60_000, errors),
    renderStoreLimitBytes: int(env, 'RENDER_STORE_LIMIT_BYTES', 1024 * MiB, MiB, 1024 * 1024 * MiB, errors),
    searchMaxTracked: int(env, 'SEARCH_MAX_TRACKED', 1_000_000, 1, 1_000_000_000, errors),
    searchSortMaxEntries: int(env, 'SEARCH_SORT_MAX_ENTRIES', 1_000_000, 1, 1_000_000_000, errors),
    searchLimitMaxEntries: int(env, 'SEARCH_LIMIT_MAX_ENTRIES', 1_000_000, 1, 1_000_000_000, errors),
    searchRenderMaxRows: int(env, 'SEARCH_RENDER_MAX_ROWS', 1_000_000, 1, 1_000_000_000, errors),
    searchHoldMaxMb: int(env, 'SEARCH_HOLD_MAX_MB', 256, 1, 1024 * 1024, errors),
    evalMaxSteps: int(env, 'EVAL_MAX_STEPS', 100_000, 100, 1_000_000_000, errors),
    maxResultBytes: int(env, 'MAX_RESULT_BYTES', 64 * MiB, 64 * 1024, 16 * 1024 * MiB, errors),
    resultCacheBytes: int(env, 'RESULT_CACHE_BYTES', 256 * MiB, MiB, 64 * 1024 * MiB, errors),
    savedSearchQuotaBytes: int(env, 'SAVED_SEARCH_QUOTA_BYTES', 4 * 1024 * MiB, MiB, 1024 * 1024 * MiB, errors),
    searchStoreQuotaBytes: int(env, 'SEARCH_STORE_QUOTA_BYTES', 8 * 1024 * MiB, MiB, 1024 * 1024 * MiB, errors),
    maxSavedSearchesPerUser: int(env, 'MAX_SAVED_SEARCHES_PER_USER', 100, 1, 100000, errors),
    renderPageMaxBytes: int(env, 'RENDER_PAGE_MAX_BYTES', 16 * MiB, 64 * 1024, 1024 * MiB, errors),
    renderPagesPerUser: int(env, 'RENDER_PAGES_PER_USER', 1, 1, 1024, errors),
    renderPageQueue: int(env, 'RENDER_PAGE_QUEUE', 16, 0, 100000, errors),
    queryWorkers: int(env, 'QUERY_WORKERS', Math.min(2, os.availableParallelism()), 1, 64, errors),
    queryWorkPerUser: int(env, 'QUERY_WORK_PER_USER', 1, 1, 1024, errors),
    queryWorkQueue: int(env, 'QUERY_WORK_QUEUE', 16, 0, 100000, errors),
    queryCompileMaxMs: int(env, 'QUERY_COMPILE_MAX_MS', 10, 1, 600000, errors),
    importConcurrency: int(env, 'IMPORT_CONCURRENCY', 1, 1, 64, errors),
    importQueue: int(env, 'IMPORT_QUEUE', 8, 0, 100000, errors),
    importWorkerHeapMb: int(env, 'IMPORT_WORKER_HEAP_MB', 256, 64, 16384, errors),
    searchPingTimeoutSeconds: int(env, 'SEARCH_PING_TIMEOUT_SECONDS', 10, 1, 3600, errors),
    maxJsonDepth: int(env, 'MAX_JSON_DEPTH', 64, 2, 10000, errors),
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', 10000, 0, 600000, errors),
    httpHeadersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000, errors),
    httpRequestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 300_000, 100, 86_400_000, errors),
    maxConnections: int(env, 'MAX_CONNECTIONS', defaultMaxConnections(), 1, 10_000_000, errors),
    maxUnauthenticatedConnectionsPerAddress: int(env, 'MAX_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS', 256, 1, 10_000_000, errors),
    wsMaxPerUser: int(env, 'WS_MAX_PER_USER', 64, 1, 1_000_000, errors),
    wsIdleTimeoutMs: int(env, 'WS_IDLE_TIMEOUT_MS', 300_000, 100, 86_400_000, errors),
    wsPendingSearchesPerSocket: int(env, 'WS_PENDING_SEARCHES_PER_SOCKET', 16, 1, 64, errors),
    wsPendingSearchesPerUser: int(env, 'WS_PENDING_SEARCHES_PER_USER', 64, 1, 100_000, errors),
    wsPendingSearchBytesPerSocket: int(env, 'WS_PENDING_SEARCH_BYTES_PER_SOCKET', 32 * MiB, 64 * 1024, 64 * 1024 * MiB, errors),
    wsPendingSearchBytesPerUser: int(env, 'WS_PENDING_SEARCH_BYTES_PER_USER', 64 * MiB, 64 * 1024, 64 * 1024 * MiB, errors),
    wsPendingSearchTimeoutMs: int(env, 'WS_PENDING_SEARCH_TIMEOUT_MS', 30_000, 100, 3_600_000, errors),
    hecAckRetentionSeconds: int(env, 'HEC_ACK_RETENTION_SECONDS', 3600, 1, 7 * 86400, errors),
    hecSourcetypeTags: map(env, 'HEC_SOURCETYPE_TAGS', errors),
    embeddedPgFast: false,
  };
  if (cfg.adminPassword !== undefined && (cfg.adminPassword.length < 8 || Buffer.byteLength(cfg.adminPassword) > 72)) {
    errors.push('ADMIN_PASSWORD must be 8 to 72 bytes long');
  }
  if (cfg.jwtSecret !== undefined && Buffer.byteLength(cfg.jwtSecret) < 32) {
    errors.push('JWT_SECRET must be at least 32 bytes long');
  }
  if (cfg.scheduleRunLeaseSeconds * 1000 < cfg.searchTimeoutMs + 5000) {
    errors.push('SCHEDULE_RUN_LEASE_SECONDS must be at least SEARCH_TIMEOUT_MS plus 5 seconds (a run still searching would be taken as lost)');
  }
  if (cfg.httpRequestTimeoutMs < cfg.httpHeadersTimeoutMs) errors.push('HTTP_REQUEST_TIMEOUT_MS must not be shorter than HTTP_HEADERS_TIMEOUT_MS');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(cfg.logLevel)) {
    errors.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${cfg.logLevel}")`);
  }
  if (errors.length) throw new ConfigError(`Invalid configuration:\n  ${errors.join('\n  ')}`);
  return cfg;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
