/**
 * Wire shapes of the service (shared/spec/service-api.md, product-notes §2). Where the service's
 * OpenAPI document describes a body, its type is the one generated from that document
 * (openapi.gen.ts, `npm run api:types`), so a server change that breaks the console fails its type
 * check; the rest (renderer pages, the parse answer) are written here.
 */
import type { components } from './openapi.gen';

type Schemas = components['schemas'];

export type GroupDetails = Schemas['GroupDetailsDto'];

export type UserDetails = Schemas['UserDetailsDto'];

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

export type SearchInfo = Schemas['SearchInfoDto'];

export type LaunchResponse = Schemas['LaunchResponseDto'];

export type OverviewStats = Schemas['OverviewStatsDto'];

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

export type LibraryEntry = Schemas['LibraryEntryDto'];

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

/** An autoextractor (/api/autoextractors, the product's AXDefinition): how `ax` extracts the fields of its tags. */
export type Autoextractor = Schemas['AutoextractorDto'];
/** POST /api/autoextractors/test: the fields a definition extracts and its run over a sample. */
export type AxTestResult = Schemas['AxTestResultDto'];

/** The fields the console writes when it creates, updates or tests an autoextractor. */
export interface AutoextractorInput {
  Tags: string[];
  Name: string;
  Desc: string;
  Module: string;
  Params: string;
  Args: string;
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

/** A macro (/api/macros, the product's SearchMacro): `$NAME` in a query becomes its Expansion. */
export type Macro = Schemas['MacroDto'];
/** A scheduled search (/api/scheduledsearches, the product's ScheduledSearch), its runs and next slots. */
export type ScheduledSearch = Schemas['ScheduledSearchDto'];
export type ScheduledSearchRun = Schemas['ScheduledSearchRunDto'];
export type NextRuns = Schemas['NextRunsDto'];

/** The fields the console writes when it creates or updates a macro. */
export interface MacroInput {
  Name: string;
  Description: string;
  Expansion: string;
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

/** A template (/api/templates, the product's WireUserTemplate): a query with variables, such as %%IP%%. */
export type Template = Schemas['TemplateDto'];

/** One variable of a template (the product's TemplateVariable). */
export type TemplateVariable = Schemas['TemplateVariableDto'];

/** The fields the console writes when it creates or updates a template. */
export interface TemplateInput {
  Name: string;
  Description: string;
  Contents: { query: string; variables: TemplateVariable[] };
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

/** A playbook (/api/playbooks, the product's Playbook): markdown (Body, base64) with embedded queries; listings leave Body out. */
export type Playbook = Schemas['PlaybookDto'];

/** The fields the console writes when it creates or updates a playbook (Body: base64 of the UTF-8 markdown). */
export interface PlaybookInput {
  Name: string;
  Desc: string;
  Body: string;
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

/** An actionable (/api/pivots, the product's pivot): triggers over values in results, and the actions they offer. */
export type Actionable = Schemas['PivotDto'];
export type ActionableContents = Schemas['PivotContentsDto'];
export type ActionableAction = Schemas['PivotActionDto'];
export type ActionableTrigger = Schemas['PivotTriggerDto'];

/** The fields the console writes when it creates or updates an actionable. */
export interface ActionableInput {
  Name: string;
  Description: string;
  Contents: ActionableContents;
  Labels: string[];
  GIDs: number[];
  Disabled: boolean;
  /** administrators only */
  Global?: boolean;
}

export type SearchLog = Schemas['SearchLogDto'];

/** An item of GET /api/searchctrl. */
export type SearchSummary = Schemas['SearchSummaryDto'];

/** An item of GET /api/searchctrl/details: the search info, with what saving added. */
export type SearchDetails = SearchInfo;

/* Administration of users and groups (issue 18, web/src/admin). */

/** POST /api/users: every field is required. */
export type NewUserInput = Schemas['CreateUserDto'];

/** GET /api/users/{id}/sessions */
export type UserSessions = Schemas['SessionListDto'];

/* API tokens (/api/tokens, product-notes §1.3). */

export type ApiToken = Schemas['TokenDto'];

/** POST and the refresh PATCH: the only answers that carry the secret. */
export type ApiTokenWithSecret = Schemas['TokenWithSecretDto'];

/** An item of GET /api/tokens/capabilities?detail=true. */
export type CapabilityDesc = Schemas['CapabilityDescDto'];

/* Kept things: dashboards, user files, resources (their pages' API modules re-export these). */

/** A dashboard as the service sends it; whatever else it carries is sent back as is (contract: Dashboards rule 6). */
export type Dashboard = Omit<Schemas['DashboardDto'], 'Data'> & { /** any JSON */ Data: unknown; [key: string]: unknown };
export type UserFile = Schemas['UserFileDto'];
export type ResourceMeta = Schemas['ResourceMetadataDto'];
export type ContentTypeAnswer = Schemas['ContentTypeDto'];
