/**
 * Token capabilities. Every name the product defines is accepted (its client creates tokens with
 * any of them), in the product's order: a name's position is its numeric value, and 5 is unused
 * (product-notes §1.3). Only some reach an API of ours today (`GRANTING`); the others are stored
 * and listed but open nothing. A route names the capability a token needs in `@Auth({ capability })`.
 */
const PRODUCT_ORDER = [
  'Search',
  'Download',
  'SaveSearch',
  'AttachSearch',
  'BackgroundSearch',
  null,
  'SetSearchGroup',
  'SearchHistory',
  'SearchGroupHistory',
  'SearchAllHistory',
  'DashboardRead',
  'DashboardWrite',
  'ResourceRead',
  'ResourceWrite',
  'TemplateRead',
  'TemplateWrite',
  'PivotRead',
  'PivotWrite',
  'MacroRead',
  'MacroWrite',
  'LibraryRead',
  'LibraryWrite',
  'ExtractorRead',
  'ExtractorWrite',
  'UserFileRead',
  'UserFileWrite',
  'KitRead',
  'KitWrite',
  'KitBuild',
  'KitDownload',
  'ScheduleRead',
  'ScheduleWrite',
  'SOARLibs',
  'SOAREmail',
  'PlaybookRead',
  'PlaybookWrite',
  'LicenseRead',
  'Stats',
  'Ingest',
  'ListUsers',
  'ListGroups',
  'ListGroupMembers',
  'NotificationRead',
  'NotificationWrite',
  'SystemInfoRead',
  'TokenRead',
  'TokenWrite',
  'SecretRead',
  'SecretWrite',
  'AlertRead',
  'AlertWrite',
  'LogbotAI',
] as const;

type ProductCapability = Exclude<(typeof PRODUCT_ORDER)[number], null>;
export const PRODUCT_CAPABILITIES = PRODUCT_ORDER.filter((c): c is ProductCapability => c !== null);

/** Our additions: the contract's user-account and preference APIs have no product name. */
export const SERVICE_CAPABILITIES = ['UserRead', 'UserWrite', 'PreferencesRead', 'PreferencesWrite'] as const;

export const CAPABILITIES = [...PRODUCT_CAPABILITIES, ...SERVICE_CAPABILITIES] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The capabilities some API of this service checks (a test holds this to the route declarations). */
export const GRANTING: ReadonlySet<Capability> = new Set<Capability>([
  'Search',
  'Download',
  'SaveSearch',
  'AttachSearch',
  'BackgroundSearch',
  'SetSearchGroup',
  'SearchHistory',
  'DashboardRead',
  'DashboardWrite',
  'ResourceRead',
  'ResourceWrite',
  'LibraryRead',
  'LibraryWrite',
  'MacroRead',
  'MacroWrite',
  'ExtractorRead',
  'ExtractorWrite',
  'TemplateRead',
  'TemplateWrite',
  'PlaybookRead',
  'PlaybookWrite',
  'PivotRead',
  'PivotWrite',
  'ScheduleRead',
  'ScheduleWrite',
  'UserFileRead',
  'UserFileWrite',
  'Stats',
  'Ingest',
  'ListUsers',
  'ListGroups',
  'ListGroupMembers',
  'NotificationRead',
  'NotificationWrite',
  'SystemInfoRead',
  'TokenRead',
  'TokenWrite',
  ...SERVICE_CAPABILITIES,
]);

/** The numeric value: the product's position, then ours after the product's last. */
const capNumber = (c: Capability): number => {
  const i = (PRODUCT_ORDER as readonly (string | null)[]).indexOf(c);
  return i >= 0 ? i : PRODUCT_ORDER.length + (SERVICE_CAPABILITIES as readonly string[]).indexOf(c);
};

const byLowerName = new Map<string, Capability>(CAPABILITIES.map((c) => [c.toLowerCase(), c]));

/** Case-insensitive parse, as the product does; undefined for an unknown name. */
export function parseCapability(name: string): Capability | undefined {
  return byLowerName.get(name.toLowerCase());
}

export interface CapabilityDescription {
  Cap: number;
  Name: Capability;
  Desc: string;
  Category: string;
  /** Whether a token holding it reaches any API of this service today. */
  Grants: boolean;
}

const DESCRIPTIONS: Record<Capability, [string, string]> = {
  Search: ['Search', 'Run searches'],
  Download: ['Search', 'Download search results'],
  SaveSearch: ['Search', 'Save searches'],
  AttachSearch: ['Search', 'Attach to existing searches'],
  BackgroundSearch: ['Search', 'Background searches'],
  SetSearchGroup: ['Search', 'Set the default search group'],
  SearchHistory: ['Search', 'Read own search history'],
  SearchGroupHistory: ['Search', 'Read the search history of own groups (no such API here yet)'],
  SearchAllHistory: ['Search', 'Read all search history (no such API here yet)'],
  DashboardRead: ['Dashboards', 'Read dashboards'],
  DashboardWrite: ['Dashboards', 'Create, change and delete dashboards'],
  ResourceRead: ['Resources', 'Read resources'],
  ResourceWrite: ['Resources', 'Create, change and delete resources'],
  LibraryRead: ['Query Library', 'Read the search library'],
  LibraryWrite: ['Query Library', 'Change the search library'],
  UserFileRead: ['Files', 'Read user files'],
  UserFileWrite: ['Files', 'Create, change and delete user files'],
  Stats: ['System and Stats', 'Read system statistics'],
  Ingest: ['Data Ingest', 'Ingest entries'],
  ListUsers: ['Users and Groups', 'List users'],
  ListGroups: ['Users and Groups', 'List groups'],
  ListGroupMembers: ['Users and Groups', 'List the members of groups'],
  NotificationRead: ['Notifications', 'Read notifications'],
  NotificationWrite: ['Notifications', 'Send, change and delete notifications'],
  SystemInfoRead: ['System and Stats', 'Read system information'],
  TokenRead: ['Tokens', 'Read API tokens'],
  TokenWrite: ['Tokens', 'Create, change and delete API tokens'],
  TemplateRead: ['Templates', 'Read templates, and fill in their variables to run them'],
  TemplateWrite: ['Templates', 'Create, change, share and delete templates'],
  PivotRead: ['Actionables', 'Read actionables (pivots), and see their menus on values in results'],
  PivotWrite: ['Actionables', 'Create, change and delete actionables (pivots)'],
  MacroRead: ['Macros', 'Read macros, and expand them in searches'],
  MacroWrite: ['Macros', 'Create, change and delete macros'],
  ExtractorRead: ['Extractors', 'Read autoextractors, and use them in searches (ax)'],
  ExtractorWrite: ['Extractors', 'Create, change, upload and delete autoextractors'],
  KitRead: ['Kits', 'Read kits (no such API here yet)'],
  KitWrite: ['Kits', 'Install and change kits (no such API here yet)'],
  KitBuild: ['Kits', 'Build kits (no such API here yet)'],
  KitDownload: ['Kits', 'Download kits (no such API here yet)'],
  ScheduleRead: ['Automations', 'Read scheduled searches, their runs and results'],
  ScheduleWrite: ['Automations', 'Create, change, run now and delete scheduled searches'],
  SOARLibs: ['Automations', 'Use script libraries (no such API here yet)'],
  SOAREmail: ['Automations', 'Send email from scripts (no such API here yet)'],
  PlaybookRead: ['Playbooks', 'Read playbooks'],
  PlaybookWrite: ['Playbooks', 'Create, change and delete playbooks'],
  LicenseRead: ['System and Stats', 'Read the license (no such API here)'],
  SecretRead: ['Secrets', 'Read secrets (no such API here yet)'],
  SecretWrite: ['Secrets', 'Change secrets (no such API here yet)'],
  AlertRead: ['Automations', 'Read alerts (no such API here yet)'],
  AlertWrite: ['Automations', 'Change alerts (no such API here yet)'],
  LogbotAI: ['Logbot AI', 'Use the AI assistant (no such API here)'],
  UserRead: ['Users and Groups', 'Read own account details, sessions and groups'],
  UserWrite: ['Users and Groups', 'Change own account details and password'],
  PreferencesRead: ['Users and Groups', 'Read own preferences'],
  PreferencesWrite: ['Users and Groups', 'Change and delete own preferences'],
};

export function describeCapabilities(): CapabilityDescription[] {
  return CAPABILITIES.map((name) => ({ Cap: capNumber(name), Name: name, Category: DESCRIPTIONS[name][0], Desc: DESCRIPTIONS[name][1], Grants: GRANTING.has(name) }));
}
