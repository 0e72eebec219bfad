/**
 * Token capabilities. Names and order follow the real product (product-notes §1.3); the
 * ones the product lacks for APIs of our contract are appended in the same style.
 * A route names the capability a token needs in its `@Auth({ capability })` declaration.
 */
export const PRODUCT_CAPABILITIES = [
  'Search', 'Download', 'SaveSearch', 'AttachSearch', 'BackgroundSearch', 'SetSearchGroup',
  'SearchHistory', 'SearchGroupHistory', 'SearchAllHistory', 'DashboardRead', 'DashboardWrite',
  'ResourceRead', 'ResourceWrite', 'LibraryRead', 'LibraryWrite', 'UserFileRead', 'UserFileWrite',
  'Stats', 'Ingest', 'ListUsers', 'ListGroups', 'ListGroupMembers', 'NotificationRead',
  'NotificationWrite', 'SystemInfoRead', 'TokenRead', 'TokenWrite',
] as const;

/** Our additions: the contract's user-account and preference APIs have no product name. */
export const SERVICE_CAPABILITIES = ['UserRead', 'UserWrite', 'PreferencesRead', 'PreferencesWrite'] as const;

export const CAPABILITIES = [...PRODUCT_CAPABILITIES, ...SERVICE_CAPABILITIES] as const;
export type Capability = (typeof CAPABILITIES)[number];

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
}

const DESCRIPTIONS: Record<Capability, [string, string]> = {
  Search: ['Search', 'Run searches'],
  Download: ['Search', 'Download search results'],
  SaveSearch: ['Search', 'Save searches'],
  AttachSearch: ['Search', 'Attach to existing searches'],
  BackgroundSearch: ['Search', 'Background searches'],
  SetSearchGroup: ['Search', 'Set the default search group'],
  SearchHistory: ['Search', 'Read own search history'],
  SearchGroupHistory: ['Search', 'Read the search history of own groups'],
  SearchAllHistory: ['Search', 'Read all search history'],
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
  UserRead: ['Users and Groups', 'Read own account details, sessions and groups'],
  UserWrite: ['Users and Groups', 'Change own account details and password'],
  PreferencesRead: ['Users and Groups', 'Read own preferences'],
  PreferencesWrite: ['Users and Groups', 'Change and delete own preferences'],
};

export function describeCapabilities(): CapabilityDescription[] {
  return CAPABILITIES.map((name, i) => ({ Cap: i, Name: name, Category: DESCRIPTIONS[name][0], Desc: DESCRIPTIONS[name][1] }));
}
