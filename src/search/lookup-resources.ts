/**
 * Resources of a search at launch: compiles the query (checked first in a query worker, then
 * once here: the run uses this compiled search), loads the tables its `lookup -r` modules read
 * (with the caller's rights, bounded by LOOKUP_MAX_BYTES, read and parsed in a query worker once
 * admitted, into a shared read-only form) and prepares `table -save`. Every launch path (REST
 * launch, websocket, direct search) goes through `compile` and `resolve`, so they refuse the same
 * queries with the same messages, and one user's launches take their turn (QueryWork).
 */
import { Inject, Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { badQuery, CompiledSearch, compileSearch, queryLimits, SearchRange, SearchResources } from '../indexer/search-executor';
import { checkLookups, LookupTable, QueryDescription, QueryLimits, RenderResult, resourcesNeeded, tableToCsv } from '../query';
import { LOOKUP_RESOURCE_ACCESS, LookupResourceAccess } from './lookup-resource-access';
import { CompileFacts, QueryWork } from './query-work';
import { QueryMacroExpander } from './query-macros';
import { QueryAutoextractorSource } from './query-autoextractors';

export interface PreparedQuery {
  search: CompiledSearch;
  /** what the query worker found out compiling it */
  facts: CompileFacts;
  /** what the run needs: the loaded tables and the `table -save` step (pass to SearchExecutor.runCompiled) */
  resources: SearchResources;
}

/** Parsed tables by content ID (blobs are immutable: a new version has a new ID), kept briefly. */
class TableCache {
  private readonly entries = new Map<string, { table: LookupTable; size: number; at: number }>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly ttlMs: number,
  ) {}

  get(contentId: string): LookupTable | undefined {
    const e = this.entries.get(contentId);
    if (!e) return undefined;
    if (Date.now() - e.at > this.ttlMs) {
      this.drop(contentId);
      return undefined;
    }
    return e.table;
  }

  put(contentId: string, table: LookupTable): void {
    const size = table.bytes.byteLength + table.offsets.byteLength;
    if (size > this.maxBytes) return;
    this.drop(contentId);
    this.entries.set(contentId, { table, size, at: Date.now() });
    this.total += size;
    for (const key of this.entries.keys()) {
      if (this.total <= this.maxBytes) break;
      this.drop(key);
    }
  }

  private drop(contentId: string): void {
    const e = this.entries.get(contentId);
    if (!e) return;
    this.entries.delete(contentId);
    this.total -= e.size;
  }
}

const CACHE_TTL_MS = 60_000;

@Injectable()
export class LookupResources {
  private readonly cache: TableCache;
  private readonly limits: QueryLimits;
  /** Tables being read and parsed, by content ID: launches naming the same one share the work. */
  private readonly loading = new Map<string, Promise<LookupTable>>();

  constructor(
    @Inject(LOOKUP_RESOURCE_ACCESS) private readonly access: LookupResourceAccess,
    private readonly work: QueryWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly macros: QueryMacroExpander,
    private readonly autoextractors: QueryAutoextractorSource,
  ) {
    // Enough for the websocket's check and launch of one search to share one parse (a table's
    // memory is its CSV size plus 4 bytes a cell).
    this.cache = new TableCache(2 * config.lookupMaxBytes, CACHE_TTL_MS);
    this.limits = queryLimits(config);
  }

  /** Compiles `query` over `range` (relative times from `now`) and loads what it reads; 400 for a bad query or a resource it cannot use. */
  async prepare(auth: AuthContext, query: string, range: SearchRange, now = new Date()): Promise<PreparedQuery> {
    const { search, facts } = await this.compile(auth, query, range, now);
    return { search, facts, resources: await this.resolve(auth, search) };
  }

  /**
   * Compiles `query` with the service's limits: its macros expanded first with the caller's
   * rights (400 MACRO_* for a call that cannot expand) and the `ax` definitions it uses read with
   * them, then compiled in a query worker, admitted
   * per user (400 for a bad query, naming the macro a parse error came from, or one too costly to
   * compile, 429 past QUERY_WORK_QUEUE), then here. `resolve` then reads its tables.
   */
  async compile(auth: AuthContext, query: string, range: SearchRange, now = new Date()): Promise<{ search: CompiledSearch; facts: CompileFacts }> {
    const expansion = await this.macros.expand(auth, query);
    const ax = await this.autoextractors.forQuery(auth, expansion.query);
    const facts = await this.work.compile(auth.uid, expansion.query, range, now, this.limits, expansion, ax);
    return { search: compileSearch(expansion.query, { range, now, limits: this.limits, autoextractors: ax }), facts };
  }

  /** The description of `query` (POST /api/parse, the websocket's parse) with its macros expanded for the caller. */
  async describe(auth: AuthContext, query: string): Promise<QueryDescription> {
    const expansion = await this.macros.expand(auth, query);
    return this.work.describe(auth.uid, expansion.query, expansion, await this.autoextractors.forQuery(auth, expansion.query));
  }

  /** `describe` as JSON text (POST /api/parse). */
  async describeJson(auth: AuthContext, query: string): Promise<string> {
    const expansion = await this.macros.expand(auth, query);
    return this.work.describeJson(auth.uid, expansion.query, expansion, await this.autoextractors.forQuery(auth, expansion.query));
  }

  /** The tables a compiled search reads and its `table -save`, with the caller's rights now. */
  async resolve(auth: AuthContext, search: CompiledSearch): Promise<SearchResources> {
    const parsed = search.compiled.parsed;
    const refs = [...new Set(resourcesNeeded(parsed).map((n) => n.ref))].filter((r) => !r.startsWith('@'));
    if (refs.length) this.access.requireCapability(auth, 'ResourceRead');
    const save = parsed.renderer.instance.save;
    if (save !== undefined) this.access.requireCapability(auth, 'ResourceWrite');
    const lookups = new Map<string, LookupTable>();
    for (const ref of refs) lookups.set(ref, await this.load(auth, ref));
    badQuery(() => checkLookups(parsed, lookups, { partial: true }));
    const onResult = save === undefined ? undefined : (r: RenderResult) => this.save(auth, save, r);
    return { lookups, onResult };
  }

  /** One resource as a table; the same answer for a missing resource and one the caller may not read. */
  private async load(auth: AuthContext, ref: string): Promise<LookupTable> {
    const what = `ModuleError: lookup: resource "${ref}"`;
    const max = this.config.lookupMaxBytes;
    const tooLarge = (size: number) => refusal('LOOKUP_TOO_LARGE', what, size, max);
    const row = await this.access.find(auth, ref);
    if (!row) throw refusal('LOOKUP_NOT_FOUND', what);
    if (row.size > max) throw tooLarge(row.size);
    const key = row.contentId;
    const hit = key ? this.cache.get(key) : undefined;
    if (hit) return hit;
    // The caller may read this version (find said so): a parse of the same content under way serves them too.
    const pending = key ? this.loading.get(key) : undefined;
    if (pending) return pending;
    const read = async () => {
      const got = await this.access.read(auth, row);
      if (!got) throw refusal('LOOKUP_NOT_FOUND', what);
      if (got.bytes.length > max) throw tooLarge(got.bytes.length);
      return got.bytes;
    };
    const notATable = (why: string) => refusal('LOOKUP_NOT_A_TABLE', what, why);
    const loaded = this.work.parseTable(auth.uid, read, max, notATable).then((table) => {
      if (key) this.cache.put(key, table);
      return table;
    });
    if (!key) return loaded;
    this.loading.set(key, loaded);
    return loaded.finally(() => this.loading.delete(key));
  }

  private async save(auth: AuthContext, name: string, r: RenderResult): Promise<void> {
    if (r.kind !== 'table') return;
    const csv = tableToCsv(
      r.Entries.Columns,
      r.Entries.Rows.map((x) => x.Row),
    );
    await this.access.saveTable(auth, name, Buffer.from(csv, 'utf8'));
  }
}
