/**
 * What a search needs of the autoextractors feature: the engine (L3) names no feature (L4), so
 * the autoextractors feature provides its `QueryAutoextractors` under this token (a global
 * module, as macros provide QUERY_MACROS). Every path that compiles or describes a query
 * (launch, direct search, websocket, POST /api/parse) reads, for a query that calls `ax`, the
 * definitions the caller may use and hands them to the parser (`ParseContext.autoextractors`),
 * on the web server and in every worker that compiles the query again.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { AxDefinition, usesAx } from '../query';

export const QUERY_AUTOEXTRACTORS = Symbol('QUERY_AUTOEXTRACTORS');

export interface QueryAutoextractors {
  /**
   * The definitions a search run by the caller uses, one per tag: their own first, then one
   * shared with a group they are in, then a global one (the oldest among equals). 403 for a
   * token without ExtractorRead.
   */
  forSearch(auth: AuthContext): Promise<AxDefinition[]>;
}

@Injectable()
export class QueryAutoextractorSource {
  constructor(@Optional() @Inject(QUERY_AUTOEXTRACTORS) private readonly source?: QueryAutoextractors) {}

  /** The definitions for `query` (the expanded one): none read when it does not call `ax`. */
  async forQuery(auth: AuthContext, query: string): Promise<AxDefinition[]> {
    if (!this.source || !usesAx(query)) return [];
    return this.source.forSearch(auth);
  }
}
