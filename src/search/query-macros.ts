/**
 * What a search needs of the macros feature: the engine (L3) names no feature (L4), so the macros
 * feature provides its `QueryMacros` under this token (macros.module.ts, a global module). Every
 * path that reads a query (launch, direct search, websocket, POST /api/parse and the websocket's
 * parse) expands it through `QueryMacroExpander` before it parses or compiles it.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { expandMacros, MacroExpansion } from '../query';

export const QUERY_MACROS = Symbol('QUERY_MACROS');

export interface QueryMacros {
  /**
   * The text each of `names` expands to for the caller: their own macro first, then one shared
   * with a group they are in, then a global one (as GUIDs resolve). Names it cannot read are left
   * out (the expansion answers "unknown macro"). 403 for a token without MacroRead.
   */
  resolve(auth: AuthContext, names: string[]): Promise<ReadonlyMap<string, string>>;
}

@Injectable()
export class QueryMacroExpander {
  constructor(@Optional() @Inject(QUERY_MACROS) private readonly macros?: QueryMacros) {}

  /** `query` with its macros expanded for the caller (as is without a call); 400 MACRO_* when a call cannot expand. */
  expand(auth: AuthContext, query: string): Promise<MacroExpansion> {
    const macros = this.macros;
    if (!macros) return Promise.resolve({ raw: query, query, spans: [] });
    return expandMacros(query, (names) => macros.resolve(auth, names));
  }
}
