/** Capabilities grouped by area (the product's `Category`), for the checkboxes and the table. */
import { CapabilityDesc } from '../api/types';

export interface CapabilityArea {
  name: string;
  caps: CapabilityDesc[];
  /** some capability of the area reaches an API of this service */
  grants: boolean;
}

/** Areas in the order their first capability comes, capabilities in the service's order within each. */
export function groupByArea(caps: CapabilityDesc[]): CapabilityArea[] {
  const areas = new Map<string, CapabilityArea>();
  for (const c of [...caps].sort((a, b) => a.Cap - b.Cap)) {
    let area = areas.get(c.Category);
    if (!area) areas.set(c.Category, (area = { name: c.Category, caps: [], grants: false }));
    area.caps.push(c);
    area.grants ||= c.Grants;
  }
  return [...areas.values()];
}

export interface HeldArea {
  area: string;
  /** every capability of the area is held */
  all: boolean;
  names: string[];
}

/**
 * What a token holds, area by area, for a table cell: "Data Ingest: all", "Search: Search,
 * Download". Names the catalog does not know (or when it could not be read) come last under "Other".
 */
export function summarize(held: string[], areas: CapabilityArea[]): HeldArea[] {
  const set = new Set(held);
  const known = new Set<string>();
  const out: HeldArea[] = [];
  for (const a of areas) {
    const names = a.caps.map((c) => c.Name).filter((n) => set.has(n));
    a.caps.forEach((c) => known.add(c.Name));
    if (names.length) out.push({ area: a.name, all: names.length === a.caps.length, names });
  }
  const other = held.filter((n) => !known.has(n));
  if (other.length) out.push({ area: 'Other', all: false, names: other });
  return out;
}

/** One line of text per held area, as the table shows it. */
export const summaryText = (h: HeldArea): string => `${h.area}: ${h.all && h.names.length > 1 ? 'all' : h.names.join(', ')}`;

/** Starting points for common uses; the boxes can be changed after picking one. */
export const TOKEN_TEMPLATES: Array<{ name: string; caps: string[] }> = [
  { name: 'Log shipper', caps: ['Ingest'] },
  { name: 'Search and read', caps: ['Search', 'Download', 'AttachSearch', 'BackgroundSearch', 'SearchHistory', 'DashboardRead', 'ResourceRead', 'LibraryRead'] },
  { name: 'Monitoring', caps: ['Stats', 'SystemInfoRead'] },
];

/** The template's capabilities that the catalog offers (all of them, when it could not be read). */
export function templateCaps(caps: string[], areas: CapabilityArea[]): string[] {
  if (!areas.length) return caps;
  const offered = new Set(areas.flatMap((a) => a.caps.map((c) => c.Name)));
  return caps.filter((c) => offered.has(c));
}
