/** Module and renderer names of the service (for completion and highlighting), fetched once. */
import { useState } from 'react';
import { api } from '../api/client';
import { RenderModuleInfo, SearchModuleInfo } from '../api/types';
import { useCancellable } from '../ui/useCancellable';
import { Catalog } from './editor-extensions';
import { KNOWN_RENDERERS } from './query-language';

let cached: Promise<Catalog> | undefined;

export function loadCatalog(): Promise<Catalog> {
  cached ??= Promise.all([api<SearchModuleInfo[]>('/api/info/searchmodules'), api<RenderModuleInfo[]>('/api/info/rendermodules')]).then(
    ([modules, renderers]) => ({ modules, renderers }),
    (err) => {
      cached = undefined;
      throw err;
    },
  );
  return cached;
}

const EMPTY: Catalog = { modules: [], renderers: [] };

export function useCatalog(): { catalog: Catalog; renderers: ReadonlySet<string> } {
  const [catalog, setCatalog] = useState<Catalog>(EMPTY);
  useCancellable(loadCatalog, { answer: setCatalog }, []);
  const renderers = new Set(catalog.renderers.length ? catalog.renderers.map((r) => r.Name) : KNOWN_RENDERERS);
  return { catalog, renderers };
}
