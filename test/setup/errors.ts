/**
 * Expected error responses: the messages users read in `{"Error": "..."}`, worded exactly as the
 * service words them (AppError throws in src/**, the validation pipe, the error filter, the guard).
 * A test pins a whole body with `errorBody(...)`; a change of wording is then made here, once, on
 * purpose, and every test that shows the message to a user follows. Every body also carries the
 * refusal's `Code` (src/common/errors/codes.ts): pin it with `errorBody(message, 'CODE')`.
 */
import type { ErrorCode } from '../../src/common/errors/codes';

/** The whole body of an error response: `Error` and its catalogue `Code`. */
export const errorBody = (message: string, code: ErrorCode): { Error: string; Code: unknown } => ({ Error: message, Code: code });

/** An error frame of a websocket (frames carry the message only). */
export const frameError = (message: string): { Error: string } => ({ Error: message });

/** The request itself: path IDs, the body, the global validation pipe (src/common). */
export const requestErrors = {
  invalidId: (raw: string) => `Invalid ID "${raw}"`,
  invalidUuid: (raw: string) => `Invalid UUID "${raw}"`,
  /** The validation pipe: one problem per field, joined with "; ". */
  invalidRequest: (...problems: string[]) => `Invalid request: ${problems.join('; ')}`,
  /** A JSON body that is not an object (a string, an array, a number). */
  notAnObject: 'Invalid request: body: Validation failed (object is expected)',
  malformedJson: 'Malformed JSON body',
  /** Every 413 names the limit and its setting (src/common/errors/bytes.ts `overLimitText`). */
  overLimit: (what: string, limit: string, setting?: string) => `${what} is larger than the limit of ${limit}${setting ? ` (${setting})` : ''}`,
  jsonBodyTooLarge: (limit: string) => `Request body is larger than the limit of ${limit} (MAX_JSON_BODY)`,
  /** A value PostgreSQL refuses (a NUL character in text, a number out of range). */
  invalidValue: 'Invalid value in request',
  duplicate: 'An object with that name or ID already exists',
  noSuchRoute: 'Not found',
  mustBeValidJson: (field: string) => `${field} must be valid JSON`,
  guidMustBeUuid: 'GUID must be a UUID',
  /** A query-string flag such as `?admin=` that is not a boolean. */
  notBoolean: (field: string) => `Invalid request: ${field} must be a boolean value`,
};

/** The validation pipe's (class-validator's) wording of one problem, for `requestErrors.invalidRequest`. */
export const fieldErrors = {
  maxLength: (field: string, n: number) => `${field} must be shorter than or equal to ${n} characters`,
  minLength: (field: string, n: number) => `${field} must be longer than or equal to ${n} characters`,
  maxItems: (field: string, n: number) => `${field} must contain no more than ${n} elements`,
  boolean: (field: string) => `${field} must be a boolean value`,
  max: (field: string, n: number) => `${field} must not be greater than ${n}`,
  min: (field: string, n: number) => `${field} must not be less than ${n}`,
  /** A rule on every element of an array field: `GIDs: each value in GIDs must ...`. */
  each: (field: string, rule: string) => `${field}: each value in ${field} ${rule}`,
};

/** Credentials and route rights (src/auth). */
export const authErrors = {
  invalidJwt: 'Invalid or expired token',
  malformedToken: 'Malformed API token',
  unknownToken: 'Unknown API token',
  revokedToken: 'API token has been revoked',
  replacedToken: 'API token has been refreshed: use the new secret it was given',
  adminOnly: 'Admin only',
  adminNotForTokens: 'Admin APIs are not available to API tokens',
  tokenLacks: (capability: string) => `API token lacks the ${capability} capability`,
};

/** Owners, Global and groups of shareable objects (dashboards, library, files, resources). */
export const sharingErrors = {
  onlyAdminsSetGlobal: 'Only admins may set Global',
  onlyAdminsSetOwner: 'Only admins may set another owner (UID)',
  userDoesNotExist: (uid: number) => `User ${uid} does not exist`,
  unknownGroup: (gid: number, field: string) => `Unknown group ${gid} in ${field}`,
  onlyOwnGroups: (...gids: number[]) => `You may share only with groups you belong to (not ${gids.join(', ')})`,
  reusedGuid: "This GUID belongs to another user's object: a copy that reuses it stays private (only an admin may share it with groups or make it global)",
};

export const userErrors = {
  notFound: 'User not found',
  exists: (name: string) => `User "${name}" already exists`,
};

export const groupErrors = {
  notFound: 'Group not found',
};

export const dashboardErrors = {
  notFound: 'Dashboard not found',
  ownerOrAdmin: 'Only the owner or an admin may change or delete this dashboard',
  membersOnly: 'Only members of the group and admins may list its dashboards',
  /** `{id}` in the path: GET and PUT take a number or a GUID, DELETE a number only. */
  invalidId: (raw: string, guidAllowed = true) => `Invalid dashboard ID "${raw}"${guidAllowed ? ' (a number or a GUID)' : ''}`,
};

export const libraryErrors = {
  notFound: 'Library entry not found',
  noAccess: 'You cannot access this library entry',
  onlyOwnerChanges: 'Only the owner (or an admin with ?admin=true) may change this library entry',
  onlyOwnerDeletes: 'Only the owner (or an admin with ?admin=true) may delete this library entry',
  sharedGuid: 'Several entries share this GUID; in admin mode use the ThingUUID',
};

export const fileErrors = {
  notFound: 'File not found',
  onlyOwnerChanges: 'Only the owner (or an admin with admin=true) may change this file',
  onlyOwnerDeletes: 'Only the owner (or an admin with admin=true) may delete this file',
  filePartRequired: 'A multipart body with a part named "file" is required',
  malformedMultipart: 'Malformed multipart body',
  metaNotJson: 'Field "meta" must be valid JSON',
  metaNotObject: 'Field "meta" must be a JSON object',
  invalidMeta: (problem: string) => `Invalid meta: ${problem}`,
};

export const ingestErrors = {
  /** The characters a tag name may not hold (ingest rules). */
  tagChars: `must not contain whitespace or any of !@#$%^&*()=+<>,.:;"'{}[]|\\`,
  base64: 'Data must be base64 data',
  timestamp: 'TS must be an RFC3339 timestamp between 1970 and 9999',
  tooManyEntries: (n: number) => `Too many entries: at most ${n} per request (MAX_INGEST_ENTRIES)`,
  bodyTooLarge: (limit: string) => `Request body is larger than the limit of ${limit} (MAX_INGEST_BATCH_BYTES)`,
  notAnArray: 'Body must be a JSON array of entries',
  filePartRequired: 'A file part named "file" is required',
  fileTooLarge: (limit: string) => `Uploaded file is larger than the limit of ${limit} (MAX_INGEST_BATCH_BYTES)`,
};

/** Limits on what one user or request may use (README "Limits"). */
export const limitErrors = {
  jsonDepth: (field?: string) => `${field ? `${field}: ` : ''}JSON nests deeper than 64 levels`,
  searchesRunning: (running: number, waiting: number) => `You have ${running} searches running and ${waiting} waiting; try again shortly`,
  newTagsPerRequest: (n: number, max: number) => `Too many new tags in one request: ${n}, at most ${max} (MAX_NEW_TAGS_PER_REQUEST)`,
  tagsPerUser: (max: number, have: number) => `Too many tags: one user may create at most ${max} (MAX_TAGS_PER_USER); you have ${have}`,
  tagNumbersLeft: (n: number) => `Too many tags: only ${n} tag numbers are left`,
  newDays: (n: number, max: number) => `The entries span ${n} new days; one request may add at most ${max} (MAX_NEW_PARTITIONS_PER_REQUEST)`,
  wrongPasswords: (seconds: number) => `Too many wrong passwords; try again in ${seconds} seconds`,
};

/** Requests authenticated by the console's cookie must come from the console (src/auth/same-origin.ts). */
export const originErrors = {
  missing: 'A request authenticated by cookie must carry an Origin or Referer header',
  crossSite: (origin: string) => `Cross-site request refused: origin ${origin} is not this service`,
};

/** Queries the service refuses (the query language). */
export const queryErrors = {
  module: (message: string) => `ModuleError: ${message}`,
};

/** Launching searches (src/searchctrl). */
export const searchErrors = {
  /** A query someone else wrote (another owner's dashboard) with side effects, launched without ConfirmSideEffects. */
  sideEffects: (what: string) => `This query was written by someone else and has side effects (${what}); run it only after confirming (ConfirmSideEffects)`,
};

export const notificationErrors = {
  noTarget: 'A targeted notification needs a UID or a GID',
};

export const resourceErrors = {
  notFound: 'Resource not found',
  onlyOwnerChanges: 'Only the owner or an admin may change this resource',
  onlyOwnerDeletes: 'Only the owner or an admin may delete this resource',
  onlyAdminsGlobal: 'Only admins can create global resources',
  unexpectedPart: (name: string) => `Unexpected file part "${name}": only "file" is accepted`,
};

/** A stored name (files, resources): what may not be in it. */
export const nameRule = (field: string) => `${field} must be 1-255 characters without control characters, "/" or "\\", and not "." or ".."`;

export const preferenceErrors = {
  ownOnly: 'Non-admins may access only their own preferences',
  jsonContentType: 'Preferences must be sent with Content-Type: application/json',
  emptyBody: 'The request body is empty; send the JSON to store',
};

export const tokenErrors = {
  adminListOnly: "Only admins signed in with a session may list every user's tokens (admin=true)",
  unknownCapabilities: (...names: string[]) => `Unknown capabilities: ${names.map((n) => JSON.stringify(n)).join(', ')}`,
  expiryFormat: 'expiresAt must be an RFC 3339 timestamp such as 2030-01-02T15:04:05Z',
  expiryPast: 'expiresAt must be in the future',
  limit: (n: number) => `Token limit reached: a user may hold at most ${n} tokens; delete one first`,
  notFound: 'Token not found',
  jwtAndToken: 'Send either a Service-Token or an Authorization header, not both',
  tokenLacks: (caps: readonly string[]) => `A token may grant only capabilities it holds; it lacks: ${caps.join(', ')}`,
  outlives: (iso: string) => `A token may not make a token that outlives it: expiresAt must be at or before ${iso}`,
  notWithin: 'A token may change or refresh only tokens with no more capabilities and no later expiry than its own',
  refreshExpired: 'This token has expired: send a new expiresAt to refresh it',
};

/** Connections refused before any request is read (src/common/http/connection-limits.ts), and timed-out requests. */
export const connectionErrors = {
  tooManyOpen: 'The service has too many open connections; try again shortly',
  tooManyFromAddress: (n: number) => `Too many connections from your address that have not signed in (at most ${n}); try again shortly`,
  requestTimeout: 'The request was not received in time',
};

/** Websocket limits (src/ws): refused upgrades, and error frames of the search socket. */
export const wsErrors = {
  tooManySockets: (n: number) => `Too many websockets: at most ${n} open per user; close one first`,
  pendingPerSocket: (n: number) => `Too many searches waiting for their acknowledgement: at most ${n} per socket`,
  pendingPerUser: (n: number) => `Too many searches waiting for their acknowledgement: at most ${n} per user`,
  pendingBytesPerSocket: (mib: number) => `Searches waiting for their acknowledgement would hold too much memory: at most ${mib} MiB per socket`,
  pendingBytesPerUser: (mib: number) => `Searches waiting for their acknowledgement would hold too much memory: at most ${mib} MiB per user`,
  notAcknowledged: (subproto: string, seconds: number) => `The search on ${subproto} was not acknowledged within ${seconds} s and was dropped`,
  noneWaiting: (subproto: string) => `No search is waiting on ${JSON.stringify(subproto)}`,
};

/** Storage quotas and work admitted before it runs (issue 32 items 6-7, issue 24 item 5; src/searchctrl, src/search). */
export const availabilityErrors = {
  savedSearchesCap: (n: number) => `You keep ${n} saved searches, the most MAX_SAVED_SEARCHES_PER_USER allows; delete saved searches first`,
  /** A query too costly to compile on the web server (the milliseconds vary: match with a pattern). */
  queryTooLarge: (max: number) => new RegExp(`^Query is too large: compiling it takes \\d+ ms, more than QUERY_COMPILE_MAX_MS \\(${max} ms\\); split it into smaller queries$`),
  archiveUpload: (limit: string) => `Uploaded file is larger than the limit of ${limit} (RENDER_STORE_LIMIT_BYTES)`,
};

/** Searches (src/searchctrl): an unknown search, and one the caller may not see, answer the same. */
export const searchNotFound = 'Search not found';

/**
 * Error frames of the search socket (src/ws/search.socket.ts, search-render.ts): the routing envelope, the
 * `{"type", "data"}` frames and the render subprotocols. Frames carry the message only, no Code.
 */
export const searchSocketErrors = {
  /** A frame that is not JSON: `{"Resp": "ERROR"}` before the Subs are ACK'd, `{"type": "ERROR"}` after (the stats socket words it the same). */
  malformedJson: 'Malformed JSON frame',
  /** A frame on a type the socket did not subscribe to, or a render subprotocol already closed. */
  unknownSubprotocol: (type: string) => `Unknown subprotocol ${JSON.stringify(type)}`,
};

/** Search archives (`POST /api/searchctrl/import`). */
export const archiveErrors = {
  invalid: (why: string) => `Invalid search archive: ${why}`,
};
