import { useCallback, useEffect, useMemo, useState } from 'react';
import { Template, TemplateVariable } from '../api/types';
import { getTemplate } from '../templates/templates-api';
import { DashboardSearch, DashboardView, searchesToRun, templateRef } from './dashboard-data';

/**
 * The variables of a dashboard whose tiles run templates (an "investigative dashboard"): the
 * templates its tiles run are read, their variables merged by name (a variable used by several
 * templates is asked for once; required if any of them requires it), and the viewer's values
 * kept while the page is open. A variable's default is its template's, except that a search's
 * `reference.extras.defaultValue` (the dashboard's own default, as the product's client writes
 * it for its one-variable templates) is the default of the first variable of that template.
 * Until the viewer gives the values (`give`), the template tiles wait; a dashboard whose
 * templates have no variables runs at once.
 */
export function useDashboardVariables(view: DashboardView | undefined) {
  const refs = useMemo(() => (view ? searchesToRun(view).flatMap((i) => templateRef(view.searches[i]) ?? []) : []), [view]);
  const ids = useMemo(() => [...new Set(refs.map((r) => r.id))], [refs]);
  const idsKey = ids.join(',');
  const [templates, setTemplates] = useState<ReadonlyMap<string, Template | undefined>>();
  const [values, setValues] = useState<Record<string, string>>();

  useEffect(() => {
    if (!ids.length) return setTemplates(new Map());
    let live = true;
    // An unreadable template adds no variable: its tile says why when it runs (the fill refuses).
    void Promise.all(
      ids.map((id) =>
        getTemplate(id).then(
          (t): [string, Template | undefined] => [id, t],
          (): [string, undefined] => [id, undefined],
        ),
      ),
    ).then((pairs) => {
      if (live) setTemplates(new Map(pairs));
    });
    return () => {
      live = false;
    };
  }, [idsKey]); // eslint-disable-line react-hooks/exhaustive-deps -- idsKey stands for ids

  const variables = useMemo<TemplateVariable[]>(() => {
    const merged = new Map<string, TemplateVariable>();
    for (const ref of refs) {
      (templates?.get(ref.id)?.Contents.variables ?? []).forEach((v, j) => {
        const had = merged.get(v.name);
        if (had) return void (had.required ||= v.required);
        merged.set(v.name, { ...v, defaultValue: j === 0 && ref.defaultValue !== undefined ? ref.defaultValue : v.defaultValue });
      });
    }
    return [...merged.values()];
  }, [refs, templates]);

  const loaded = templates !== undefined;
  const none = loaded && variables.length === 0;
  const given = useMemo(() => (none ? {} : values), [none, values]);
  const valuesOf = useCallback(
    (s: DashboardSearch): Record<string, string> | undefined => {
      const ref = templateRef(s);
      if (!given || !ref) return given && {};
      const names = templates?.get(ref.id)?.Contents.variables.map((v) => v.name) ?? [];
      return Object.fromEntries(names.filter((n) => n in given).map((n) => [n, given[n]]));
    },
    [given, templates],
  );
  /** why a tile running a template has not started yet, if it has not */
  const waiting = !refs.length || given ? undefined : loaded ? 'This tile runs a template: give the dashboard’s variables to run it.' : 'Reading the templates of the dashboard…';
  return { loaded, variables, values: given, give: setValues, valuesOf, waiting, hasTemplates: refs.length > 0 };
}
