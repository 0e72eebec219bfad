/**
 * Every refusal the service answers, in one place: its code (the `Code` of the error body), its
 * HTTP status and its message (the `Error`), written out or built from the details it names.
 * Throw one with `refusal('CODE', ...details)` (app-error.ts). Clients and tests compare codes;
 * messages are for people and stay word for word what they were before codes existed.
 *
 * The generic codes at the top are what an error without a code of its own answers with (an
 * `AppError` built the old way, a framework error): derived from its status by `codeForStatus`.
 */
import { formatBytes, overLimitText } from './bytes';

type Message = string | ((...details: never[]) => string);

export interface CodeEntry {
  readonly status: number;
  readonly message: Message;
}

const e = <M extends Message>(status: number, message: M) => ({ status, message }) as const;

export const ERROR_CODES = {
  // ── Generic, by status (errors without a code of their own) ──
  BAD_REQUEST: e(400, 'Bad request'),
  UNAUTHORIZED: e(401, 'Authentication required'),
  FORBIDDEN: e(403, 'Permission denied'),
  NOT_FOUND: e(404, 'Not found'),
  METHOD_NOT_ALLOWED: e(405, 'Method not allowed'),
  REQUEST_TIMEOUT: e(408, 'Request timeout'),
  CONFLICT: e(409, 'Conflict'),
  PRECONDITION_FAILED: e(412, 'Precondition failed'),
  PAYLOAD_TOO_LARGE: e(413, 'Payload too large'),
  UNSUPPORTED_MEDIA_TYPE: e(415, 'Unsupported media type'),
  UNPROCESSABLE: e(422, 'Unprocessable request'),
  LOCKED: e(423, 'Locked'),
  TOO_MANY_REQUESTS: e(429, 'Too many requests'),
  HEADERS_TOO_LARGE: e(431, 'Request headers are too large'),
  INTERNAL_ERROR: e(500, 'Internal server error'),
  SERVICE_UNAVAILABLE: e(503, 'Service unavailable'),

  // ── HTTP framing, bodies and connections (common/http, app.setup) ──
  ROUTE_NOT_FOUND: e(404, 'Not found'),
  MALFORMED_JSON: e(400, 'Malformed JSON body'),
  MALFORMED_URL: e(400, 'Malformed URL'),
  MALFORMED_HTTP_REQUEST: e(400, 'Malformed HTTP request'),
  REQUEST_ABORTED: e(400, (why?: string) => (why === undefined ? 'Request aborted' : `Request aborted: ${why}`)),
  REQUEST_NOT_RECEIVED_IN_TIME: e(408, 'The request was not received in time'),
  BODY_TOO_LARGE: e(413, (limit: number, setting?: string) => overLimitText('Request body', limit, setting)),
  UNSUPPORTED_BODY_ENCODING: e(415, 'Unsupported body encoding'),
  UNSUPPORTED_CONTENT_ENCODING: e(415, (encoding: string) => `Unsupported Content-Encoding "${encoding}"`),
  DECOMPRESSED_BODY_TOO_LARGE: e(413, (limit: number, setting?: string) => overLimitText('Decompressed body', limit, setting)),
  INVALID_GZIP: e(400, 'Body is not valid gzip data'),
  TOO_MANY_CONNECTIONS: e(503, 'The service has too many open connections; try again shortly'),
  TOO_MANY_UNAUTHENTICATED_CONNECTIONS: e(429, (max: number) => `Too many connections from your address that have not signed in (at most ${max}); try again shortly`),
  REFUSAL_BRAKE: e(
    429,
    (max: number, windowS: number) => `Too many refused requests with this credential; slow down and honour Retry-After (REFUSAL_BRAKE_MAX ${max} in ${windowS} s)`,
  ),

  // ── Multipart uploads (storage, error filter) ──
  FILE_TOO_LARGE: e(413, (limit?: number, setting?: string) =>
    limit === undefined ? 'Uploaded file is larger than the configured limit' : overLimitText('Uploaded file', limit, setting),
  ),
  MULTIPART_TOO_MANY_PARTS: e(413, (detail?: string) => `Too many parts in the multipart body${detail === undefined ? '' : ` (${detail})`}`),
  MULTIPART_FIELD_TOO_LARGE: e(413, (limit?: number) =>
    limit === undefined ? 'A multipart field is too large' : `A multipart field is larger than the limit of ${formatBytes(limit)}`,
  ),
  MULTIPART_UNEXPECTED_FILE: e(400, (field?: string) => `Unexpected file field${field ? ` "${field}"` : ''}`),
  MULTIPART_UNEXPECTED_FILE_PART: e(400, (field: string) => `Unexpected file part "${field}": only "file" is accepted`),
  MALFORMED_MULTIPART: e(400, 'Malformed multipart body'),
  FILE_PART_REQUIRED: e(400, 'A multipart body with a part named "file" is required'),
  INGEST_FILE_PART_REQUIRED: e(400, 'A file part named "file" is required'),

  // ── The database (error filter) ──
  ALREADY_EXISTS: e(409, 'An object with that name or ID already exists'),
  REFERENCED: e(409, 'The object refers to, or is referred to by, another object'),
  INVALID_VALUE: e(400, 'Invalid value in request'),
  DATABASE_TIMEOUT: e(503, 'The database took too long to answer'),
  DATABASE_UNAVAILABLE: e(503, 'The database is unavailable; try again shortly'),

  // ── Validation (common/validation) ──
  VALIDATION_FAILED: e(400, (details?: string) => (details ? `Invalid request: ${details}` : 'Invalid request body')),
  INVALID_ID: e(400, (value: string) => `Invalid ID "${value}"`),
  INVALID_UUID: e(400, (value: string) => `Invalid UUID "${value}"`),
  JSON_TOO_DEEP: e(400, (max: number, field?: string) => `${field ? `${field}: ` : ''}JSON nests deeper than ${max} levels`),
  INVALID_JSON_FIELD: e(400, (field: string) => `${field} must be valid JSON`),
  INVALID_TIMESTAMP: e(400, (field: string) => `${field} must be an RFC3339 timestamp`),
  ADMIN_ONLY: e(403, 'Admin only'),

  // ── Users and groups ──
  USER_NOT_FOUND: e(404, 'User not found'),
  USER_ALREADY_EXISTS: e(409, (user: string) => `User "${user}" already exists`),
  OWN_ACCOUNT_ONLY: e(403, 'Non-admins may act only on their own account'),
  OWN_SESSIONS_ONLY: e(403, 'Non-admins may list only their own sessions'),
  GROUP_MEMBERS_FORBIDDEN: e(403, 'Only members of the group and admins may list its members'),
  PRIMARY_ADMIN_RENAME: e(403, 'The default admin account cannot be renamed'),
  PRIMARY_ADMIN_DEMOTE: e(403, 'The default admin account cannot be demoted'),
  PRIMARY_ADMIN_DELETE: e(403, 'The default admin account cannot be deleted'),
  ADMIN_STATUS_ADMIN_ONLY: e(403, 'Only admins may change admin status'),
  ORIG_PASS_REQUIRED: e(400, 'OrigPass is required'),
  ORIG_PASS_WRONG: e(403, 'OrigPass is not the current password'),
  DELETE_OWN_ACCOUNT: e(403, 'You cannot delete your own account'),
  LOCK_OWN_ACCOUNT: e(403, 'You cannot lock your own account'),
  NOT_A_GROUP_MEMBER: e(403, 'The user is not a member of that group'),
  MEMBERSHIP_NOT_FOUND: e(404, 'Membership not found'),
  GROUP_NOT_FOUND: e(404, 'Group not found'),
  GROUPS_NOT_FOUND: e(404, (gids: string) => `Group ${gids} not found`),
  TOO_MANY_PASSWORD_ATTEMPTS: e(429, (what: string, waitSeconds: number) => `Too many ${what}; try again in ${Math.ceil(waitSeconds)} seconds`),
  PASSWORD_CHECKS_BUSY: e(503, 'Too many password checks in progress; retry shortly'),

  // ── API tokens ──
  TOKEN_NOT_FOUND: e(404, 'Token not found'),
  TOKEN_EXPIRES_AT_INVALID: e(400, 'expiresAt must be an RFC 3339 timestamp such as 2030-01-02T15:04:05Z'),
  TOKEN_EXPIRES_AT_PAST: e(400, 'expiresAt must be in the future'),
  TOKEN_EXPIRED: e(400, 'This token has expired: send a new expiresAt to refresh it'),
  TOKEN_LIMIT_REACHED: e(409, (max: number) => `Token limit reached: a user may hold at most ${max} tokens; delete one first`),
  TOKENS_OFF_FOR_NON_ADMINS: e(403, 'An admin has turned off API tokens for non-admin users'),
  TOKENS_LIST_ALL_ADMIN_ONLY: e(403, "Only admins signed in with a session may list every user's tokens (admin=true)"),
  TOKEN_OUTLIVES_TOKEN: e(403, (bound: string) => `A token may not make a token that outlives it: expiresAt must be at or before ${bound}`),
  TOKEN_WIDER_THAN_TOKEN: e(403, 'A token may change or refresh only tokens with no more capabilities and no later expiry than its own'),
  UNKNOWN_CAPABILITIES: e(400, (names: string) => `Unknown capabilities: ${names}`),
  TOKEN_LACKS_CAPABILITIES: e(403, (names: string) => `A token may grant only capabilities it holds; it lacks: ${names}`),
  CAPABILITIES_NOT_GRANTABLE: e(403, (names: string) => `You may not grant: ${names}`),

  // ── Preferences ──
  OWN_PREFERENCES_ONLY: e(403, 'Non-admins may access only their own preferences'),
  PREFERENCES_NOT_JSON: e(415, 'Preferences must be sent with Content-Type: application/json'),
  PREFERENCES_BODY_EMPTY: e(400, 'The request body is empty; send the JSON to store'),
  PREFERENCES_BODY_REQUIRED: e(400, 'The preferences must be sent as a JSON body'),
  PREFERENCES_INVALID_JSON: e(400, 'The preferences must be valid JSON'),

  // ── Notifications ──
  NOTIFICATION_NOT_FOUND: e(404, 'Notification not found'),
  NOTIFICATION_TARGET_REQUIRED: e(400, 'A targeted notification needs a UID or a GID'),
  NOTIFICATION_UPDATE_FORBIDDEN: e(403, 'Only the addressee may change a notification'),
  NOTIFICATION_DELETE_FORBIDDEN: e(403, 'Only the addressee or an admin may delete a notification'),
  INVALID_NOTIFICATION_ID: e(400, (value: string) => `Invalid notification ID "${value}"`),

  // ── Ingest ──
  TOO_MANY_ENTRIES: e(413, (max: number) => `Too many entries: at most ${max} per request (MAX_INGEST_ENTRIES)`),
  ENTRIES_NOT_AN_ARRAY: e(400, 'Body must be a JSON array of entries'),
  ENTRY_OUTSIDE_TIME_WINDOW: e(400, (index: number, problem: string) => `entry ${index}: ${problem}`),
  NOT_AN_OBJECT: e(400, (where: string) => `${where} must be an object`),
  INVALID_TAG_NAME: e(400, (where: string, problem: string) => `${where} ${problem}`),
  INVALID_SOURCE: e(400, (where: string) => `${where} must be an IP address`),
  INVALID_BASE64: e(400, (where: string) => `${where} must be base64 data`),
  INVALID_ENTRY_TIMESTAMP: e(400, (where: string) => `${where} must be an RFC3339 timestamp between 1970 and 9999`),
  ENUMERATED_DATA_SIZE: e(400, (where: string, type: number, bytes: number) => `${where}: type ${type} needs ${bytes} bytes of data`),
  ENUMERATED_TYPE_UNSUPPORTED: e(400, (where: string, type: number) => `${where}: unsupported enumerated value type ${type} (send ValueStr instead)`),
  ENUMERATED_NOT_AN_ARRAY: e(400, (where: string) => `${where}.Enumerated must be an array`),
  TOO_MANY_ENUMERATED: e(400, (where: string, max: number) => `${where}.Enumerated has more than ${max} values`),
  ENUMERATED_NAME_INVALID: e(400, (where: string) => `${where}.Name must be a string of 1 to 128 characters`),
  ENUMERATED_TYPE_INVALID: e(400, (where: string) => `${where}.Value.Type must be an integer`),
  ENUMERATED_VALUE_REQUIRED: e(400, (where: string) => `${where} needs ValueStr or Value`),

  // ── The indexer ──
  INDEXER_UNAVAILABLE: e(503, (name: string) => `Indexer ${name} is unavailable`),
  NO_INDEXER_AVAILABLE: e(503, 'No indexer is available'),
  TOO_MANY_NEW_TAGS: e(400, (fresh: number, max: number) => `Too many new tags in one request: ${fresh}, at most ${max} (MAX_NEW_TAGS_PER_REQUEST)`),
  TOO_MANY_NEW_DAYS: e(400, (fresh: number, max: number) => `The entries span ${fresh} new days; one request may add at most ${max} (MAX_NEW_PARTITIONS_PER_REQUEST)`),
  TOO_MANY_TAGS: e(400, (max: number, held: number) => `Too many tags: one user may create at most ${max} (MAX_TAGS_PER_USER); you have ${held}`),
  TAG_NUMBERS_EXHAUSTED: e(400, (left: number) => `Too many tags: only ${left} tag numbers are left`),
  SEARCHES_BUSY_FOR_USER: e(429, (running: number, waiting: number) => `You have ${running} searches running and ${waiting} waiting; try again shortly`),
  SEARCHES_BUSY: e(429, 'Too many searches are running; try again shortly'),
  SEARCH_CANCELLED: e(400, 'Search was cancelled'),
  SEARCH_TIMED_OUT: e(408, (ms: number) => `Search timed out after ${ms} ms and was stopped (an expensive regular expression or a large time range may be the cause)`),
  SEARCH_LIMIT_REACHED: e(400, (limitMessage: string) => limitMessage),
  SEARCH_OUT_OF_MEMORY: e(400, 'Search needed too much memory and was stopped'),
  INDEXER_SEARCH_FAILED: e(400, (indexer: string, why: string) => `Indexer ${indexer} could not run the search: ${why}`),
  MERGE_FAILED: e(400, (why: string) => `Merging the results failed: ${why}`),
  SEARCH_WORKER_FAILED: e(500, 'Search worker failed'),
  SEARCH_WORKER_STOPPED: e(500, 'Search worker stopped unexpectedly'),
  SEARCH_RUN_FAILED: e(500, 'Search failed'),
  INNER_QUERY_FAILED: e(400, (name: string, why: string) => `Inner query @${name}: ${why}`),
  LOOKUP_TABLE_TOO_LARGE: e(400, (why: string) => `${why} (LOOKUP_MAX_BYTES)`),

  // ── Queries (search) ──
  /** The query parser's own words ("SyntaxError: ...", "ModuleError: ..."). */
  QUERY_INVALID: e(400, (parserMessage: string) => parserMessage),
  QUERY_REQUIRED: e(400, 'A query is required: header "query", URL parameter ?query= or JSON field "SearchString" (or "query")'),
  QUERY_TOO_EXPENSIVE: e(
    400,
    (cpuMs: number, maxMs: number) => `Query is too large: compiling it takes ${Math.round(cpuMs)} ms, more than QUERY_COMPILE_MAX_MS (${maxMs} ms); split it into smaller queries`,
  ),
  QUERY_OUT_OF_MEMORY: e(400, (heapMb: number) => `Query work needs more than ${heapMb} MiB of memory (a query worker's heap)`),
  QUERY_WORK_BUSY_FOR_USER: e(
    429,
    (perUser: number, waiting: number) =>
      `You have ${perUser} ${perUser === 1 ? 'query' : 'queries'} being compiled (or tables parsed) and ${waiting} waiting (QUERY_WORK_PER_USER, QUERY_WORK_QUEUE); try again shortly`,
  ),
  QUERY_WORK_BUSY: e(429, (waiting: number) => `Too many queries are being compiled (QUERY_WORK_QUEUE ${waiting} waiting); try again shortly`),
  FIELD_NOT_A_STRING: e(400, (field: string) => `${field} must be a string`),
  FIELD_TOO_LONG: e(400, (field: string, max: number) => `${field} is longer than ${max} characters`),
  TIME_RANGE_INCOMPLETE: e(400, 'Give both start and end (RFC3339), or a duration'),
  TIME_RANGE_REQUIRED: e(
    400,
    'A time range is required: start and end (RFC3339), or duration (for example 1h), as headers, URL parameters or JSON fields ("SearchStart" and "SearchEnd" or "start" and "end"; "Duration" or "duration")',
  ),
  END_BEFORE_START: e(400, 'end is before start'),
  INVALID_DURATION: e(400, 'duration must be a positive Go duration such as 1h or 90m'),
  INVALID_SEQUENCE: e(400, 'Sequence must be a non-negative integer'),
  INVALID_PREVIEW: e(400, 'Preview must be a boolean'),
  UNKNOWN_FORMAT: e(400, (format: string) => `Unknown format "${format}": use json, csv or text`),
  FORMAT_NOT_SUPPORTED: e(
    400,
    (format: string, renderer: string, supported: string) => `Format "${format}" is not supported by the ${renderer} renderer (supported: ${supported})`,
  ),
  LOOKUP_NOT_FOUND: e(400, (what: string) => `${what} not found`),
  LOOKUP_TOO_LARGE: e(400, (what: string, size: number, max: number) => `${what} is ${size} bytes, more than the lookup limit of ${max} bytes (LOOKUP_MAX_BYTES)`),
  LOOKUP_NOT_A_TABLE: e(400, (what: string, why: string) => `${what} is not a usable CSV table: ${why}`),
  /** The CSV reader's own words. */
  LOOKUP_TABLE_INVALID: e(400, (readerMessage: string) => readerMessage),

  // ── Searches (searchctrl, ws) ──
  SEARCH_NOT_FOUND: e(404, 'Search not found'),
  SEARCH_SESSION_NOT_FOUND: e(404, 'Search session not found'),
  INVALID_SEARCH_ID: e(400, (value: string) => `Invalid search ID "${value}"`),
  SEARCH_START_AFTER_END: e(400, 'SearchStart must not be after SearchEnd'),
  TOO_MANY_SEARCHES: e(429, (max: number) => `Too many searches: at most ${max} unsaved searches per user; delete or detach from one first`),
  GLOBAL_ADMIN_ONLY: e(403, 'Only admins may set Global'),
  SEARCH_ID_IN_USE: e(409, 'That search ID is already in use; start the search again'),
  SEARCH_NOT_ACTIVE: e(409, (state: string, action: string) => `Search is ${state}: only an ACTIVE search can be ${action}`),
  SEARCH_STILL_RUNNING: e(409, 'The search is still running; download its results once it has finished'),
  ARCHIVE_SEARCH_STILL_RUNNING: e(409, 'The search is still running; download the archive once it has finished'),
  /** 422 when the query or a limit made the search fail, 500/503 when the service did (the status goes with the failure). */
  SEARCH_FAILED: e(422, (reason: string) => `search failed: ${reason}`),
  SIDE_EFFECTS_NOT_CONFIRMED: e(
    403,
    (effects: string) => `This query was written by someone else and has side effects (${effects}); run it only after confirming (ConfirmSideEffects)`,
  ),
  RESULT_RANGE_INVERTED: e(400, 'last must not be less than first'),
  WRONG_RENDERER: e(400, (id: string, renderer: string, asked: string) => `Search ${id} uses the ${renderer} renderer, not ${asked}`),
  FORMAT_NOT_AVAILABLE: e(400, (format: string, renderer: string, available?: string) =>
    available === undefined
      ? `Format "${format}" is not available for the ${renderer} renderer`
      : `Format "${format}" is not available for the ${renderer} renderer (available: ${available})`,
  ),
  RENDER_PAGES_BUSY: e(
    429,
    (perUser: number, waiting: number) =>
      `You have ${perUser} renderer ${perUser === 1 ? 'page' : 'pages'} being read and ${waiting} waiting (RENDER_PAGES_PER_USER, RENDER_PAGE_QUEUE); try again shortly`,
  ),
  SAVED_SEARCH_QUOTA_EXCEEDED: e(
    413,
    (used: number, limit: number) =>
      `Saved searches quota exceeded: your saved searches use ${formatBytes(used)} of the limit of ${formatBytes(limit)} (SAVED_SEARCH_QUOTA_BYTES); delete saved searches to make room`,
  ),
  SEARCH_STORE_QUOTA_EXCEEDED: e(
    413,
    (used: number, limit: number) =>
      `Search results quota exceeded: your searches store ${formatBytes(used)} of the limit of ${formatBytes(limit)} (SEARCH_STORE_QUOTA_BYTES); delete searches to make room`,
  ),
  /** What an import's worker answers when the quota refusal itself could not be named. */
  SEARCH_RESULTS_QUOTA_EXCEEDED: e(413, 'Search results quota exceeded'),
  TOO_MANY_SAVED_SEARCHES: e(409, (max: number) => `You keep ${max} saved searches, the most MAX_SAVED_SEARCHES_PER_USER allows; delete saved searches first`),
  ARCHIVE_FILE_REQUIRED: e(400, 'Multipart field "file" (the search archive) is required'),
  INVALID_ARCHIVE: e(400, (why: string) => `Invalid search archive: ${why}`),
  ARCHIVE_TOO_LARGE: e(413, (what: string, limit: number, setting?: string) => overLimitText(what, limit, setting)),
  ARCHIVE_RATIO_TOO_HIGH: e(413, (ratio: number) => `Archive unpacks to more than ${ratio} times its compressed size (a fixed limit)`),
  ARCHIVE_TOO_MANY_ENTRIES: e(413, (max: number) => `Archive holds more than ${max} entries (a fixed limit)`),
  IMPORT_OUT_OF_MEMORY: e(413, (limit: number) => overLimitText('The memory checking this archive needs', limit, 'IMPORT_WORKER_HEAP_MB')),
  IMPORTS_BUSY_FOR_USER: e(429, (waiting: number) => `You have an archive import running and ${waiting} waiting (IMPORT_QUEUE); try again shortly`),
  IMPORTS_BUSY: e(
    429,
    (concurrency: number, queue: number) => `Too many archive imports are running (IMPORT_CONCURRENCY ${concurrency}, IMPORT_QUEUE ${queue}); try again shortly`,
  ),
  IMPORT_RATE_LIMITED: e(429, (max: number, waitSeconds: number) => `At most ${max} archive imports a minute (IMPORT_MAX_PER_MINUTE); try again in ${Math.ceil(waitSeconds)} s`),
  WS_START_INVALID: e(400, 'data must be a StartSearchRequest object'),
  /** The first failed rule of a websocket StartSearchRequest, in class-validator's words. */
  WS_START_FIELD_INVALID: e(400, (ruleMessage: string) => ruleMessage),

  // ── Search history ──
  HISTORY_ADMIN_ONLY: e(403, 'Admin only: admin=true'),
  OWN_HISTORY_ONLY: e(403, 'You may read only your own search history'),
  HISTORY_RANGE_INVERTED: e(400, 'end must not be less than start'),
  HISTORY_PAGE_TOO_LARGE: e(400, (max: number) => `At most ${max} history entries per request`),

  // ── Credentials and route rights (identity, login, ws) ──
  CREDENTIALS_REQUIRED: e(401, 'Authentication required: send Authorization: Bearer <JWT> or a Service-Token'),
  TOKEN_AND_JWT_SENT: e(401, 'Send either a Service-Token or an Authorization header, not both'),
  INVALID_JWT: e(401, 'Invalid or expired token'),
  SESSION_ENDED: e(401, 'Session has ended; log in again'),
  SESSION_EXPIRED: e(401, 'Session has expired; log in again'),
  ACCOUNT_LOCKED: e(401, 'Account is locked'),
  MALFORMED_API_TOKEN: e(401, 'Malformed API token'),
  UNKNOWN_API_TOKEN: e(401, 'Unknown API token'),
  API_TOKEN_REVOKED: e(401, 'API token has been revoked'),
  API_TOKEN_REFRESHED: e(401, 'API token has been refreshed: use the new secret it was given'),
  API_TOKEN_EXPIRED: e(401, 'API token has expired'),
  API_TOKENS_TURNED_OFF: e(401, 'API tokens are turned off for non-admin users'),
  ROUTE_WITHOUT_ACCESS_RULE: e(403, 'This route declares no access rule'),
  ADMIN_API_NOT_FOR_TOKENS: e(403, 'Admin APIs are not available to API tokens'),
  API_NOT_FOR_TOKENS: e(403, 'This API is not available to API tokens'),
  API_TOKEN_LACKS_CAPABILITY: e(403, (capability: string) => `API token lacks the ${capability} capability`),
  ORIGIN_REQUIRED: e(403, 'A request authenticated by cookie must carry an Origin or Referer header'),
  CROSS_SITE_REQUEST: e(403, (origin: string) => `Cross-site request refused: origin ${origin} is not this service`),
  /** HEC routes answer these in HEC's shape (their HEC code: 3, 2, 4, 4). */
  HEC_AUTHORIZATION_INVALID: e(401, 'Invalid authorization: use "Authorization: Splunk <token>"'),
  HEC_TOKEN_REQUIRED: e(401, 'Token is required'),
  HEC_TOKEN_INVALID: e(401, (why: string) => `Invalid token: ${why}`),
  HEC_TOKEN_FORBIDDEN: e(403, (why: string) => `Invalid token: ${why}`),
  /** Failed logins answer in the product's shape `{LoginStatus: false, Reason}`, with `Error` and `Code`. */
  LOGIN_FAILED: e(422, 'Invalid username or password'),
  LOGIN_ACCOUNT_LOCKED: e(423, 'Account is locked'),
  TOO_MANY_WEBSOCKETS: e(429, (max: number) => `Too many websockets: at most ${max} open per user; close one first`),

  // ── Shared objects: owner, groups, Global (sharing; dashboards, library, files, resources, searches use GLOBAL_ADMIN_ONLY too) ──
  OTHER_OWNER_ADMIN_ONLY: e(403, 'Only admins may set another owner (UID)'),
  OWNER_DOES_NOT_EXIST: e(400, (uid: number) => `User ${uid} does not exist`),
  UNKNOWN_GROUPS: e(400, (gids: string, field: string) => `Unknown group ${gids} in ${field}`),
  NOT_A_MEMBER_OF_GROUPS: e(403, (gids: string) => `You may share only with groups you belong to (not ${gids})`),
  GUID_OF_ANOTHER_OWNER: e(403, "This GUID belongs to another user's object: a copy that reuses it stays private (only an admin may share it with groups or make it global)"),
  INVALID_GUID: e(400, 'GUID must be a UUID'),

  // ── Dashboards ──
  DASHBOARD_NOT_FOUND: e(404, 'Dashboard not found'),
  DASHBOARD_NOT_YOURS: e(403, 'Only the owner or an admin may change or delete this dashboard'),
  GROUP_DASHBOARDS_FORBIDDEN: e(403, 'Only members of the group and admins may list its dashboards'),
  INVALID_DASHBOARD_ID: e(400, (value: string, guidAllowed: boolean) => `Invalid dashboard ID "${value}"${guidAllowed ? ' (a number or a GUID)' : ''}`),
  DASHBOARD_CHANGED: e(412, 'The dashboard was changed since you loaded it (If-Match does not match its current ETag); load it again, or save without If-Match to overwrite'),
  DASHBOARD_ID_UNAVAILABLE: e(409, 'Could not allocate a dashboard ID; try again'),

  // ── Search library ──
  LIBRARY_ENTRY_NOT_FOUND: e(404, 'Library entry not found'),
  LIBRARY_ENTRY_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner (or an admin with ?admin=true) may ${verb} this library entry`),
  LIBRARY_ENTRY_FORBIDDEN: e(403, 'You cannot access this library entry'),
  LIBRARY_GUID_AMBIGUOUS: e(400, 'Several entries share this GUID; in admin mode use the ThingUUID'),

  // ── Macros (src/macros; expansion: src/query/macros.ts) ──
  MACRO_NOT_FOUND: e(404, 'Macro not found'),
  MACRO_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this macro`),
  MACRO_NAME_INVALID: e(400, (name: string) => `Invalid macro name "${name}": use upper-case letters A-Z, digits, _ and -, starting with a letter or digit`),
  MACRO_NAME_TAKEN: e(409, (name: string) => `The owner already has a macro named ${name}`),
  MACRO_LIST_NOT_YOURS: e(403, 'Only admins may list the macros of another user or of a group they are not in'),
  MACRO_UNKNOWN: e(400, (name: string, where: string) => `Unknown macro $${name}${where}`),
  MACRO_LOOP: e(400, (chain: string) => `Macro loop: ${chain}`),
  MACRO_ARGUMENT_COUNT: e(
    400,
    (name: string, wanted: number, given: number, where: string) => `Macro $${name} takes ${wanted} argument${wanted === 1 ? '' : 's'}, ${given} given${where}`,
  ),
  MACRO_TOO_MANY_ARGUMENTS: e(400, (name: string, max: number, where: string) => `Macro $${name}: more than ${max} arguments${where}`),
  MACRO_CALL_UNTERMINATED: e(400, (name: string, where: string) => `Macro $${name}: the argument list has no closing ")"${where}`),
  MACRO_TOO_DEEP: e(400, (max: number, chain: string) => `Macros nest more than ${max} deep: ${chain}`),
  MACRO_EXPANSION_TOO_LARGE: e(400, (max: number) => `The query with its macros expanded is longer than ${max} characters`),
  MACRO_TOO_MANY_CALLS: e(400, (max: number) => `The query expands more than ${max} macros`),

  // ── Autoextractors (src/autoextractors; `ax`: src/query/modules/ax.ts) ──
  AUTOEXTRACTOR_NOT_FOUND: e(404, 'Autoextractor not found'),
  AUTOEXTRACTOR_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this autoextractor`),
  AUTOEXTRACTOR_INVALID: e(400, (why: string) => why),
  AUTOEXTRACTOR_TAG_TAKEN: e(409, (tag: string) => `The owner already has an autoextractor for tag ${tag}: only one per tag (change that one)`),
  AUTOEXTRACTOR_TOO_MANY: e(400, (max: number) => `An owner may have at most ${max} autoextractors`),
  AUTOEXTRACTOR_UUID_REQUIRED: e(400, 'The body names no autoextractor: give its UUID'),
  AUTOEXTRACTOR_FILE_INVALID: e(400, (why: string) => `The extraction file is not valid: ${why}`),
  AUTOEXTRACTOR_FILE_PART_REQUIRED: e(400, 'A multipart body with a part named "extraction" holding the definitions is required'),

  // ── Templates (src/templates; filling: src/query/templates.ts) ──
  TEMPLATE_NOT_FOUND: e(404, 'Template not found'),
  TEMPLATE_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this template`),
  TEMPLATE_GUID_AMBIGUOUS: e(400, 'Several templates you may read share this GUID; use the ThingUUID'),
  TEMPLATE_CONTENTS_INVALID: e(400, (problem: string) => `Invalid template Contents: ${problem}`),
  TEMPLATE_VALUES_INVALID: e(400, (problem: string) => `Invalid template Values: ${problem}`),
  TEMPLATE_VARIABLE_NAME_INVALID: e(400, (name: string, max: number) => `Invalid template variable name "${name}": 1 to ${max} characters without spaces, such as %%NAME%%`),
  TEMPLATE_VARIABLE_DUPLICATE: e(400, (name: string) => `The template has two variables named ${name}`),
  TEMPLATE_TOO_MANY_VARIABLES: e(400, (max: number) => `A template has at most ${max} variables`),
  TEMPLATE_VARIABLE_REQUIRED: e(400, (name: string, label: string) => `The template variable ${name}${label ? ` (${label})` : ''} is required: give it a value`),
  TEMPLATE_VARIABLE_UNKNOWN: e(400, (name: string) => `The template has no variable named ${name}`),
  TEMPLATE_QUERY_TOO_LONG: e(400, (max: number) => `The query with its variables filled in is longer than ${max} characters`),

  // ── Playbooks (src/playbooks) ──
  PLAYBOOK_NOT_FOUND: e(404, 'Playbook not found'),
  PLAYBOOK_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this playbook`),
  PLAYBOOK_NAME_REQUIRED: e(400, 'A playbook needs a Name (1-256 characters, not only spaces)'),
  PLAYBOOK_GUID_TAKEN: e(409, (guid: string) => `The owner already has a playbook with GUID ${guid}`),
  PLAYBOOK_FIELD_NOT_BASE64: e(400, (field: string) => `${field} must be base64 (the standard alphabet, padded), as the product sends bytes`),
  PLAYBOOK_TOO_LARGE: e(413, (field: string, limit: number, setting?: string) => overLimitText(`The playbook's ${field}`, limit, setting ?? 'a fixed limit')),

  // ── Actionables, the product's pivots (src/pivots) ──
  PIVOT_NOT_FOUND: e(404, 'Actionable not found'),
  PIVOT_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this actionable`),
  PIVOT_CONTENTS_INVALID: e(400, (where: string, what: string) => `Invalid actionable Contents: ${where === 'Contents' ? '' : 'Contents.'}${where} ${what}`),
  PIVOT_TOO_MANY: e(400, (where: string, max: number) => `Invalid actionable Contents: at most ${max} ${where} are allowed`),
  PIVOT_CONTENTS_TOO_LARGE: e(400, (max: number) => `Actionable Contents is larger than the limit of ${formatBytes(max)}`),
  PIVOT_TRIGGER_INVALID: e(400, (i: number, message: string) => `Contents.triggers[${i}].pattern: ${message}`),
  PIVOT_TRIGGER_UNSAFE: e(
    400,
    (i: number, part: string) =>
      `Contents.triggers[${i}].pattern: ${part} repeats a repetition, which can take exponential time in the console; make the inner part match one way only`,
  ),
  PIVOT_TRIGGER_TOO_WIDE: e(
    400,
    (i: number, n: number, max: number) =>
      `Contents.triggers[${i}].pattern: ${n} repetitions of any character (.* or .+) can take a long time in the console on long values; at most ${max}: name what is repeated instead`,
  ),
  PIVOT_REFERENCE_NOT_GUID: e(400, (where: string, type: string) => `Contents.${where}: a ${type} action refers to its ${type === 'savedQuery' ? 'saved query' : type} by GUID`),
  PIVOT_URL_INVALID: e(400, (where: string) => `Contents.${where}: a url action opens an http:// or https:// address`),

  // ── Scheduled searches (src/scheduledsearches) ──
  SCHEDULED_SEARCH_NOT_FOUND: e(404, 'Scheduled search not found'),
  SCHEDULED_SEARCH_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this scheduled search`),
  SCHEDULED_SEARCH_LIST_NOT_YOURS: e(403, 'Only admins may list the scheduled searches of another user'),
  SCHEDULED_SEARCH_LIMIT: e(409, (max: number) => `You have ${max} scheduled searches, the most SCHEDULED_SEARCHES_PER_USER allows; delete one first`),
  SCHEDULE_INVALID: e(400, (spec: string, why: string) => `Invalid schedule "${spec}": ${why}`),
  SCHEDULE_TIMEZONE_INVALID: e(400, (tz: string) => `Unknown time zone "${tz}": use an IANA name such as Europe/Paris, or leave it empty for UTC`),
  SCHEDULE_TOO_FREQUENT: e(
    400,
    (gap: number, min: number) => `The schedule runs ${gap} seconds apart at its closest; the shortest interval allowed is ${min} seconds (SCHEDULE_MIN_INTERVAL_SECONDS)`,
  ),
  SCHEDULE_DURATION_INVALID: e(400, (max: number) => `Duration must be a negative number of seconds (how far back each run searches), at most ${max} seconds back`),
  SCHEDULED_SEARCH_QUERY_MISSING: e(400, 'A scheduled search needs a SearchString or a SearchReference (a library query GUID)'),
  SCHEDULED_TYPE_UNSUPPORTED: e(400, (type: string) => `ScheduledType "${type}" cannot be scheduled here yet: only "search" runs (flows come later)`),
  SCHEDULED_SEARCH_GUID_TAKEN: e(409, 'Another scheduled search has this GUID'),
  // ── User files ──
  FILE_NOT_FOUND: e(404, 'File not found'),
  FILE_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner (or an admin with admin=true) may ${verb} this file`),
  FILE_FOR_OTHER_USER_ADMIN_ONLY: e(403, 'Only admins can create files for another user'),
  FILE_OWNER_CHANGE_ADMIN_MODE_ONLY: e(403, "Only an admin using admin=true can change a file's UID"),
  GLOBAL_FILE_ADMIN_ONLY: e(403, 'Only admins can create global files'),
  FILE_GLOBAL_ADMIN_ONLY: e(403, 'Only admins can set Global'),
  FILE_OWNER_UNKNOWN: e(400, (uid: number) => `Unknown user ${uid}`),
  /** `what`: "meta" or the simple format's fields; `problems`: class-validator's words, joined with "; ". */
  FILE_FIELDS_INVALID: e(400, (what: string, problems: string) => `Invalid ${what}: ${problems}`),
  FILE_META_NOT_AN_OBJECT: e(400, 'Field "meta" must be a JSON object'),
  FILE_NAME_REQUIRED: e(400, 'A file name is required (field "name", or "Name" in "meta")'),
  FILE_BUSY: e(503, 'The file is being changed too often to read; try again'),

  // ── Resources ──
  RESOURCE_NOT_FOUND: e(404, 'Resource not found'),
  RESOURCE_NOT_YOURS: e(403, (verb: 'change' | 'delete') => `Only the owner or an admin may ${verb} this resource`),
  GLOBAL_RESOURCE_ADMIN_ONLY: e(403, 'Only admins can create global resources'),
  RESOURCE_BUSY: e(503, (action: 'read' | 'clone') => `The resource is being changed too often to ${action}; try again`),
  RESOURCE_BUSY_FOR_SEARCH: e(503, 'A resource the search reads is being changed too often; try again'),
  TABLE_SAVE_TOO_LARGE: e(
    400,
    (name: string, bytes: number, max: number) => `table -save ${name}: the table is ${bytes} bytes as CSV, more than the resource size limit of ${max} bytes (MAX_RESOURCE_SIZE)`,
  ),

  // ── Searches as shared objects (searchctrl.access) ──
  SEARCH_NOT_YOURS: e(403, 'Only the owner or an admin may change this search'),
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The details a code's message names (none for a written-out message). */
export type CodeDetails<C extends ErrorCode> = (typeof ERROR_CODES)[C]['message'] extends (...details: infer A) => string ? A : [];

/** The message of `code` with its details. */
export function messageOf<C extends ErrorCode>(code: C, ...details: CodeDetails<C>): string {
  const m: Message = ERROR_CODES[code].message;
  return typeof m === 'string' ? m : (m as (...d: unknown[]) => string)(...details);
}

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  423: 'LOCKED',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** The generic code of an error that has none of its own. */
export const codeForStatus = (status: number): ErrorCode => BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
