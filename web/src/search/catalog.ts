/**
 * Module and renderer names of the service (for completion and highlighting), fetched once; the
 * macros the person can use, fetched once per page (they change as people make them).
 */
import { useMemo, useState } from 'react';
import { api } from '../api/client';
import { Macro, RenderModuleInfo, SearchModuleInfo } from '../api/types';
import { listMacros } from '../macros/macros-api';
import { useCancellable } from '../ui/useCancellable';
import { Catalog } from './editor-extensions';
import { KNOWN_RENDERERS } from './query-language';

let cached: Promise<Omit<Catalog, 'macros'>> | undefined;

export function loadCatalog(): Promise<Omit<Catalog, 'macros'>> {
  cached ??= Promise.all([api<SearchModuleInfo[]>('/api/info/searchmodules'), api<RenderModuleInfo[]>('/api/info/rendermodules')]).then(
    ([modules, renderers]) => ({ modules, renderers }),
    (err) => {
      cached = undefined;
      throw err;
    },
  );
  return cached;
}

const EMPTY: Omit<Catalog, 'macros'> = { modules: [], renderers: [] };

export function useCatalog(): { catalog: Catalog; renderers: ReadonlySet<string> } {
  const [names, setNames] = useState(EMPTY);
  const [macros, setMacros] = useState<Macro[]>([]);
  useCancellable(loadCatalog, { answer: setNames }, []);
  // Without macros (none yet, or MacroRead not granted) the editor completes none.
  useCancellable(() => listMacros(), { answer: setMacros }, []);
  const catalog = useMemo(() => ({ ...names, macros }), [names, macros]);
  const renderers = new Set(names.renderers.length ? names.renderers.map((r) => r.Name) : KNOWN_RENDERERS);
  return { catalog, renderers };
}
