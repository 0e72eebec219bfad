/**
 * The one typed configuration object. Built from the environment by `loadConfig`
 * (the only place that reads `process.env` is `main.ts`, which passes it in).
 */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: the service starts an embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  /**
   * Run as root, the embedded PostgreSQL runs as the OS user `postgres`; binaries and a cluster
   * that user cannot reach in place (a clone under /root) are placed here.
   */
  embeddedPgHome: string;
  /** Connection strings of the indexer databases; empty: the main database. */
  indexerUrls: string[];
  adminPassword?: string;
  jwtSecret?: string;
  /** Lifetime of a login JWT (and its server-side session), seconds. */
  jwtTtlSeconds: number;
  bcryptRounds: number;
  /** password hashes computed at once (the rest wait, bounded) */
  bcryptConcurrency: number;
  logLevel: string;
  /** Maximum JSON / form body, bytes. */
  maxJsonBody: number;
  maxResourceSize: number;
  /** Largest resource (CSV bytes) or inner-query table a search may load as a lookup table (`lookup -r`). */
  lookupMaxBytes: number;
  maxFileSize: number;
  /** Largest playbook Body (decoded markdown), bytes. */
  maxPlaybookSize: number;
  /** Failed logins allowed per account and per address inside `loginWindowSeconds`. */
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
  /** Allowed CORS origins; empty: no cross-origin access. */
  corsOrigins: string[];
  dbPoolSize: number;
  /** Milliseconds a request waits for a database connection before a 503. */
  dbConnectTimeoutMs: number;
  /** Milliseconds any one statement may run. */
  dbStatementTimeoutMs: number;
  /** Non-admins may use the token API (contract: Authentication 8). */
  tokensForNonAdmins: boolean;
  maxTokensPerUser: number;
  retentionDays: number;
  /** How often small blocks are merged (block-compaction.ts); 0: never. */
  compactionIntervalMs: number;
  maxIngestBatchBytes: number;
  maxIngestEntries: number;
  /**
   * How far ahead of now an entry's time may be (days); older than `retentionDays` is refused too.
   * Both are a 400: what retention would drop, or could never drop, is not stored.
   */
  ingestMaxFutureDays: number;
  /** Day partitions one ingest request may create (each in its own short transaction). */
  maxNewPartitionsPerRequest: number;
  /** Tags one ingest request may create, and tags one user may create in all. */
  maxNewTagsPerRequest: number;
  maxTagsPerUser: number;
  searchTimeoutMs: number;
  /** Scheduled searches (src/scheduledsearches): per-user cap, shortest interval between slots, most backfilled slots per schedule at once. */
  scheduledSearchesPerUser: number;
  scheduleMinIntervalSeconds: number;
  scheduleBackfillMaxSlots: number;
  /** How long each run's results stay as a saved search (hours). */
  scheduledResultsKeepHours: number;
  /** How often an instance looks for due slots (ms), and for queued runs (the job queue's polling, ms). */
  schedulerTickMs: number;
  /** A run not finished this long after it started is taken as lost (its worker died) and run again; > SEARCH_TIMEOUT_MS. */
  scheduleRunLeaseSeconds: number;
  /** How often the job queue looks for lost runs (seconds). */
  scheduleRecoverySeconds: number;
  /** scan workers per indexer for order-free queries (each takes a share of every large day partition) */
  scanParallelism: number;
  maxSearchesPerUser: number;
  /** Searches running at once, in all and per user; more wait (SEARCH_QUEUE each), then 429. */
  searchConcurrency: number;
  searchConcurrencyPerUser: number;
  searchQueue: number;
  /** Searches past SEARCH_DEMOTE_AFTER_MS that run outside searchConcurrency, having given their place back (0: none). */
  searchLongConcurrency: number;
  /** A search running longer than this drops its threads to the lowest CPU priority (0: never). */
  searchDemoteAfterMs: number;
  /** Search archive imports one user may start in a minute (429 beyond). */
  importMaxPerMinute: number;
  /** Refusals (429, 413) of one credential in 10 s before its further requests are held and refused. */
  refusalBrakeMax: number;
  /** How long a braked request is held before its 429. */
  refusalBrakeDelayMs: number;
  renderStoreLimitBytes: number;
  /**
   * Memory bounds of the query's condensing modules and renderers (src/query/limits.ts): default
   * `-maxtracked` of count/stats/unique/first/last, entries sort holds, entries limit and
   * top/bottom hold, rows a renderer holds, and estimated MiB of entries any of them holds.
   */
  searchMaxTracked: number;
  searchSortMaxEntries: number;
  searchLimitMaxEntries: number;
  searchRenderMaxRows: number;
  searchHoldMaxMb: number;
  /** Steps one eval program may take on one entry. */
  evalMaxSteps: number;
  /** Largest condensed result (table, chart, gauge) stored or imported, as JSON bytes. */
  maxResultBytes: number;
  /** Parsed condensed results kept in memory, by their JSON size (least recently used out first). */
  resultCacheBytes: number;
  /** Stored bytes of one user's saved and imported searches. */
  savedSearchQuotaBytes: number;
  /** Stored bytes of all of one user's searches (running, backgrounded, saved, imported), counted as they are written. */
  searchStoreQuotaBytes: number;
  /** Saved (and being saved) and imported searches one user may keep. */
  maxSavedSearchesPerUser: number;
  /** Largest renderer page, in bytes of stored entries (a page holds at least one entry). */
  renderPageMaxBytes: number;
  /** REST renderer pages one user may have streaming at once; RENDER_PAGE_QUEUE more wait, then 429. */
  renderPagesPerUser: number;
  renderPageQueue: number;
  /** Threads that compile queries and parse lookup tables off the event loop. */
  queryWorkers: number;
  /** Compiles and table parses of one user in those threads at once; QUERY_WORK_QUEUE more wait (per user and in all), then 429. */
  queryWorkPerUser: number;
  queryWorkQueue: number;
  /** A query whose compile takes longer (thread CPU time) is refused with 400. */
  queryCompileMaxMs: number;
  /** Archive imports unpacked and checked at once (one per user); IMPORT_QUEUE more wait, then 429. */
  importConcurrency: number;
  importQueue: number;
  /** Heap of the thread that unpacks and checks one archive import. */
  importWorkerHeapMb: number;
  searchPingTimeoutSeconds: number;
  /** Deepest nesting of arrays and objects accepted in a JSON body (deeper: 400). */
  maxJsonDepth: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish before the pools close. */
  shutdownDrainMs: number;
  /** Time a client has to send a request's head, and its whole request (Node's headersTimeout, requestTimeout). */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  /** Connections open at once (default: 3/4 of the open-files limit); more are answered 503. */
  maxConnections: number;
  /** Connections from one address (IPv6: a /64) not yet authenticated; more are answered 429. */
  maxUnauthenticatedConnectionsPerAddress: number;
  /** Websockets one user may hold open (429 at the upgrade beyond), and how long one may go without a frame either way. */
  wsMaxPerUser: number;
  wsIdleTimeoutMs: number;
  /**
   * Websocket searches announced but not yet acknowledged: per socket and per user, in number and
   * in estimated bytes of their compiled queries, and how long one waits for its ACK.
   */
  wsPendingSearchesPerSocket: number;
  wsPendingSearchesPerUser: number;
  wsPendingSearchBytesPerSocket: number;
  wsPendingSearchBytesPerUser: number;
  wsPendingSearchTimeoutMs: number;
  /** How long HEC acknowledgement IDs stay answerable (they survive restarts). */
  hecAckRetentionSeconds: number;
  /** HEC sourcetype -> tag overrides (`HEC_SOURCETYPE_TAGS=aws:cloudtrail=cloudtrail,...`). */
  hecSourcetypeTags: Record<string, string>;
  /** Test-only PostgreSQL settings (fsync off); never set by operators. */
  embeddedPgFast: boolean;
}
