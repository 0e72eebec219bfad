/** The status maps (product-notes §3.2) and the stats websocket's frames, as the status page reads them. Pure logic. */

export type PingMap = Record<string, string>;

export interface SysInfo {
  VirtSystem?: string;
  VirtRole?: string;
  CPUCount?: number;
  CPUModel?: string;
  CPUMhz?: string;
  CPUCache?: string;
  TotalMemoryMB?: number;
  SystemVersion?: string;
  Error?: string;
}

export interface PartitionStats {
  ID: string;
  Data: number;
  Entries: number;
  Estimated?: boolean;
  Path?: string;
  Cold?: boolean;
}

export interface IndexerStats {
  UUID?: string;
  IndexStats?: Array<{ Name: string; Stats: PartitionStats[] | null }> | null;
  Error?: string;
}

export interface IngestStats {
  EntriesPerSecond?: number;
  BytesPerSecond?: number;
  TotalCount?: number;
  TotalSize?: number;
  LastDayCount?: number;
  LastDaySize?: number;
  EntriesMinuteTail?: number[];
  Error?: string;
}

export interface StatusData {
  ping?: PingMap;
  sysDesc?: Record<string, SysInfo>;
  idxStats?: Record<string, IndexerStats>;
  igstStats?: Record<string, IngestStats>;
  /** Date.now() of the last figures received */
  updated?: number;
}

export const SUBS = ['ping', 'sysDesc', 'idxStats', 'igstStats'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What one websocket frame changes: `{type, data}` (ping data is `{States: {...}}`); anything else changes nothing. */
export function applyFrame(state: StatusData, frame: unknown, now = Date.now()): StatusData {
  if (!isObject(frame) || typeof frame.type !== 'string' || !isObject(frame.data)) return state;
  const data = frame.data;
  switch (frame.type) {
    case 'ping':
      return { ...state, ping: (isObject(data.States) ? data.States : data) as PingMap, updated: now };
    case 'sysDesc':
      return { ...state, sysDesc: data as Record<string, SysInfo>, updated: now };
    case 'idxStats':
      return { ...state, idxStats: data as Record<string, IndexerStats>, updated: now };
    case 'igstStats':
      return { ...state, igstStats: data as Record<string, IngestStats>, updated: now };
    default:
      return state;
  }
}

export interface IndexerRow {
  name: string;
  state: string;
  wells: number;
  partitions: number;
  entries: number;
  /** some partition's entry count is PostgreSQL's estimate */
  estimated: boolean;
  bytes: number;
  newest?: string;
  oldest?: string;
  entriesPerSecond?: number;
  bytesPerSecond?: number;
  ingested?: number;
  error?: string;
}

/** One row per indexer (the components of the maps other than `webserver`), sorted by name. */
export function indexerRows(d: StatusData): IndexerRow[] {
  const names = new Set<string>([...Object.keys(d.ping ?? {}), ...Object.keys(d.idxStats ?? {}), ...Object.keys(d.igstStats ?? {})]);
  names.delete('webserver');
  return [...names].sort().map((name) => {
    const ix = d.idxStats?.[name];
    const ig = d.igstStats?.[name];
    const parts = (ix?.IndexStats ?? []).flatMap((w) => w.Stats ?? []);
    const ids = parts.map((p) => p.ID).sort();
    return {
      name,
      state: d.ping?.[name] ?? 'unknown',
      wells: (ix?.IndexStats ?? []).length,
      partitions: parts.length,
      entries: parts.reduce((s, p) => s + (p.Entries || 0), 0),
      estimated: parts.some((p) => p.Estimated),
      bytes: parts.reduce((s, p) => s + (p.Data || 0), 0),
      oldest: ids[0],
      newest: ids[ids.length - 1],
      entriesPerSecond: ig?.EntriesPerSecond,
      bytesPerSecond: ig?.BytesPerSecond,
      ingested: ig?.TotalCount,
      error: ix?.Error ?? ig?.Error,
    };
  });
}

/** Components of the ping map, `webserver` first, then by name. */
export function components(ping: PingMap | undefined): Array<{ name: string; state: string }> {
  return Object.entries(ping ?? {})
    .map(([name, state]) => ({ name, state: String(state) }))
    .sort((a, b) => (a.name === 'webserver' ? -1 : b.name === 'webserver' ? 1 : a.name.localeCompare(b.name)));
}

export const healthy = (state: string): boolean => state === 'OK';

/** Words for a closed stats socket (close codes of README "Websockets"). */
export function closeReason(code: number, reason: string): { message: string; retry: boolean } {
  if (code === 4401) return { message: 'Your session has ended.', retry: false };
  if (code === 4403) return { message: `You may no longer read the server's statistics${reason ? ` (${reason})` : ''}.`, retry: false };
  if (code === 1001) return { message: 'The service is restarting.', retry: true };
  if (code === 1011) return { message: `The statistics are unavailable on the service${reason ? ` (${reason})` : ''}.`, retry: true };
  if (code === 1006 || code === 1005) return { message: 'The live connection could not be opened or was cut.', retry: true };
  return { message: `The live connection closed (code ${code}${reason ? `: ${reason}` : ''}).`, retry: true };
}

/** Seconds to wait before reconnect attempt `n` (0-based): 1, 2, 4, 8, 16, then 30. */
export const backoffSeconds = (n: number): number => Math.min(30, 2 ** n);
