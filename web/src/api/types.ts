/** Wire shapes of the service (shared/spec/service-api.md, product-notes §2). */

export interface GroupDetails {
  GID: number;
  Name: string;
  Desc: string;
}

export interface UserDetails {
  UID: number;
  User: string;
  Name: string;
  Email: string;
  Admin: boolean;
  Locked: boolean;
  DefaultGID?: number;
  Groups: GroupDetails[];
  /** administrators only: failed sign-ins counted against the account now (absent when none) */
  FailedLogins?: number;
  /** administrators only: sign-in is refused until then, after too many failed sign-ins; unlocking clears it */
  LoginBlockedUntil?: string;
}

export interface ParseResponse {
  Sequence: number;
  GoodQuery: boolean;
  ParseError?: string;
  ParsedQuery: string;
  RawQuery: string;
  ModuleIndex: number;
  CollapsingIndex: number;
  RenderModule: string;
  TimeZoomDisabled: boolean;
  Tags: string[];
  /** what the query changes outside its search (`table -save`...); empty for none */
  SideEffects?: SideEffect[];
}

/** One thing a query changes when it runs, as `POST /api/parse` names it. */
export interface SideEffect {
  /** the module (and flag) that does it: "table -save" */
  Module: string;
  /** what it does: 'writes the table to the resource "x", replacing its contents' */
  Effect: string;
}

/** Where a launch comes from (the product's LaunchInfo): a dashboard's searches say which dashboard. */
export interface LaunchInfo {
  method: 'dashboard';
  /** the dashboard's ID or GUID */
  reference: string;
}

export interface SearchModuleInfo {
  Name: string;
  Info: string;
  Examples: string[];
}

export interface RenderModuleInfo {
  Name: string;
  Description: string;
  Examples: string[];
}

export interface SearchInfo {
  ID: string;
  UID: number;
  UserQuery: string;
  EffectiveQuery: string;
  StartRange: string;
  EndRange: string;
  Started: string;
  Finished: string;
  Duration: string;
  StoreSize: number;
  IndexSize: number;
  ItemCount: number;
  TimeZoomDisabled: boolean;
  QueryTimeSpecified: boolean;
  RenderDownloadFormats: string[];
  RenderModule: string;
  Background: boolean;
  State: string;
  Metadata?: unknown;
  Error?: string;
}

export interface LaunchResponse {
  SearchSessionID: string;
  RefreshInterval: number;
  SearchID: string;
  RenderModule: string;
  RenderCmd: string;
  Info: SearchInfo;
}

export interface OverviewStats {
  SearchPosition: string;
  Finished: boolean;
  OverLimit: boolean;
  EntryCount: number;
  EntriesScanned?: number;
  BytesScanned?: number;
  Error?: string;
}

export interface StartSearchRequest {
  SearchString: string;
  SearchStart: string;
  SearchEnd: string;
  NoHistory?: boolean;
  Background?: boolean;
  Metadata?: unknown;
  LaunchInfo?: LaunchInfo;
  /** the person agreed to the side effects of a query someone else wrote (a dashboard of another owner) */
  ConfirmSideEffects?: boolean;
}

export interface SearchEntry {
  TS: string;
  SRC: string;
  Tag: number;
  /** base64 */
  Data: string;
  Enumerated?: Array<{ Name: string; ValueStr: string }>;
}

export interface TableResult {
  Columns: string[];
  Rows: Array<{ TS: string; Row: string[] }>;
}

export interface ChartResult {
  Names: string[];
  /** one value per series (`Names`); `null` where a time window has no value (mean, min, max... of no entries) */
  Values: Array<{ TS: string; Data: Array<number | null> }>;
}

export interface GaugeValue {
  Name: string;
  Magnitude: number;
  Min: number;
  Max: number;
}

export interface RendererPage<E> {
  SearchID: string;
  EntryCount: number;
  Finished: boolean;
  OverLimit: boolean;
  AdditionalEntries: boolean;
  Entries: E;
  /** entry renderers: tag name -> number */
  Tags?: Record<string, number>;
}

/** The console's own settings, kept in the user's preferences blob under `console`. */
export type ThemePref = 'system' | 'light' | 'dark';

/* Keeping searches: the search library, search history and persistent searches (issue 17 pages). */

export interface LibraryEntry {
  ThingUUID: string;
  GUID: string;
  UID: number;
  /** omitted when empty */
  GIDs?: number[];
  Global: boolean;
  Name: string;
  Description: string;
  Query: string;
  /** omitted when empty */
  Labels?: string[];
  Metadata?: unknown;
  /** what the caller may do with it */
  Can: { Delete: boolean; Modify: boolean; Share: boolean };
}

/** The fields the console writes when it creates or updates an entry. */
export interface LibraryEntryInput {
  Name: string;
  Description: string;
  Query: string;
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

export interface SearchLog {
  UID: number;
  GID: number;
  GIDs?: number[];
  Global?: boolean;
  UserQuery: string;
  EffectiveQuery: string;
  Launched: string;
}

/** An item of GET /api/searchctrl. */
export interface SearchSummary {
  ID: string;
  UID: number;
  GID: number;
  GIDs?: number[];
  Global?: boolean;
  State: string;
  AttachedClients: number;
  StoredData: number;
  UserQuery: string;
  EffectiveQuery: string;
  StartRange: string;
  EndRange: string;
  Error?: string;
}

/** An item of GET /api/searchctrl/details: the search info with what saving added. */
export interface SearchDetails extends SearchInfo {
  Name?: string;
  SaveMetadata?: unknown;
  GIDs?: number[];
  Global?: boolean;
}

/* Administration of users and groups (issue 18, web/src/admin). */

/** POST /api/users: every field is required. */
export interface NewUserInput {
  User: string;
  Pass: string;
  Name: string;
  Email: string;
  Admin: boolean;
}

/** GET /api/users/{id}/sessions */
export interface UserSessions {
  UID: number;
  User: string;
  Sessions: Array<{ LastHit: string; Origin: string; TempSession: boolean }>;
}

/* API tokens (/api/tokens, product-notes §1.3). */

export interface ApiToken {
  id: string;
  name: string;
  description: string;
  uid: number;
  createdAt: string;
  /** omitted when the token never expires */
  expiresAt?: string;
  capabilities: string[];
  lastUsedAt: string | null;
}

/** POST and the refresh PATCH: the only answers that carry the secret. */
export interface ApiTokenWithSecret extends ApiToken {
  token: string;
}

/** An item of GET /api/tokens/capabilities?detail=true. */
export interface CapabilityDesc {
  Cap: number;
  Name: string;
  Desc: string;
  Category: string;
  /** whether a token holding it reaches any API of this service */
  Grants: boolean;
}
