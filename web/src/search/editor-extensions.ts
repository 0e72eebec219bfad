/**
 * CodeMirror extensions of the query editor: highlighting by token role (classes styled in
 * styles.css, so no style is injected at run time), completion of module and renderer names and
 * of `$NAME` macro calls,
 * and the service's parse error marked at the offending module.
 */
import { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { Diagnostic } from '@codemirror/lint';
import { RangeSetBuilder } from '@codemirror/state';
import { Decoration, DecorationSet, EditorView, hoverTooltip, ViewPlugin, ViewUpdate } from '@codemirror/view';
import { api } from '../api/client';
import { Macro, ParseResponse, RenderModuleInfo, SearchModuleInfo } from '../api/types';
import { expansionPreview } from '../macros/macros-api';
import { describeModule, errorRange, macroArity, macroNameAt, moduleNameAt, tokenize } from './query-language';

const marks = new Map<string, Decoration>();
const mark = (role: string) => {
  let m = marks.get(role);
  if (!m) marks.set(role, (m = Decoration.mark({ class: `q-${role}` })));
  return m;
};

function decorate(view: EditorView): DecorationSet {
  const b = new RangeSetBuilder<Decoration>();
  for (const t of tokenize(view.state.doc.toString())) if (t.to > t.from && t.role !== 'ev') b.add(t.from, t.to, mark(t.role));
  return b.finish();
}

export const queryHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged) this.decorations = decorate(u.view);
    }
  },
  { decorations: (v) => v.decorations },
);

export interface Catalog {
  modules: SearchModuleInfo[];
  renderers: RenderModuleInfo[];
  /** the macros the person can use (GET /api/macros) */
  macros: Macro[];
}

/**
 * `$NAME`: its expansion beside it, in full (and its description) in the info panel. A macro
 * that takes arguments is inserted as `$NAME()` with the cursor between the parentheses (unless
 * they follow already).
 */
function macroOption(m: Macro): Completion {
  const arity = macroArity(m.Expansion);
  const option: Completion = {
    label: `$${m.Name}`,
    type: 'variable',
    detail: `${arity ? `(${arity} argument${arity > 1 ? 's' : ''}) ` : ''}${expansionPreview(m.Expansion, 48)}`,
    info: [m.Expansion, m.Description].filter(Boolean).join('\n\n'),
  };
  if (!arity) return option;
  option.apply = (view, _completion, from, to) => {
    const call = view.state.sliceDoc(to, to + 1) === '(' ? `$${m.Name}` : `$${m.Name}()`;
    view.dispatch({ changes: { from, to, insert: call }, selection: { anchor: from + call.length - (call.endsWith(')') ? 1 : 0) }, userEvent: 'input.complete' });
  };
  return option;
}

export function completionSource(catalog: () => Catalog) {
  return (ctx: CompletionContext): CompletionResult | null => {
    // `$` starts a macro call wherever the service would expand one.
    const call = macroNameAt(ctx.state.doc.toString(), ctx.pos);
    if (call) return { from: call.from, to: call.to, options: catalog().macros.map(macroOption), validFor: /^\$[\w-]*$/ };
    const at = moduleNameAt(ctx.state.doc.toString(), ctx.pos);
    if (!at || (at.prefix === '' && !ctx.explicit)) return null;
    const c = catalog();
    const options: Completion[] = [
      ...c.modules.map((m) => ({ label: m.Name, type: 'function', detail: 'module', info: [m.Info, ...m.Examples.slice(0, 2)].filter(Boolean).join('\n') })),
      ...c.renderers.map((r) => ({ label: r.Name, type: 'class', detail: 'renderer', info: [r.Description, ...r.Examples.slice(0, 2)].filter(Boolean).join('\n') })),
    ];
    return { from: at.from, to: at.to, options, validFor: /^[\w-]*$/ };
  };
}

/** A macro call under the pointer (`$NAME` the person can use) shows its expansion. */
export function macroHover(catalog: () => Catalog) {
  return hoverTooltip((view, pos) => {
    const q = view.state.doc.toString();
    const call = macroNameAt(q, q[pos] === '$' ? pos + 1 : pos);
    const name = call && q.slice(call.from + 1, call.to);
    const macro = name ? catalog().macros.find((m) => m.Name === name) : undefined;
    if (!call || !macro) return null;
    return {
      pos: call.from,
      end: call.to,
      above: true,
      create() {
        const dom = document.createElement('div');
        dom.className = 'macro-hover';
        dom.setAttribute('role', 'tooltip');
        const head = dom.appendChild(document.createElement('strong'));
        head.textContent = `$${macro.Name}`;
        const text = dom.appendChild(document.createElement('pre'));
        text.textContent = macro.Expansion;
        if (macro.Description) dom.appendChild(document.createElement('p')).textContent = macro.Description;
        return { dom };
      },
    };
  });
}

export interface ParseOutcome {
  query: string;
  result: ParseResponse;
  /** "module 2 (regx): ModuleError: regx is not a valid module" */
  message?: string;
}

/** Lint source: POST /api/parse (the linter debounces), the error at the module it names. */
export function parseLinter(onParsed: (o: ParseOutcome | undefined) => void) {
  return async (view: EditorView): Promise<Diagnostic[]> => {
    const query = view.state.doc.toString();
    if (!query.trim()) {
      onParsed(undefined);
      return [];
    }
    let result: ParseResponse;
    try {
      result = await api<ParseResponse>('/api/parse', { method: 'POST', json: { SearchString: query } });
    } catch {
      return [];
    }
    if (view.state.doc.toString() !== query) return [];
    if (result.GoodQuery) {
      onParsed({ query, result });
      return [];
    }
    const message = `${describeModule(query, result.ModuleIndex)}: ${result.ParseError ?? 'invalid query'}`;
    onParsed({ query, result, message });
    const { from, to } = errorRange(query, result.ModuleIndex);
    return [{ from, to: Math.max(to, from + 1 <= query.length ? from + 1 : from), severity: 'error', message: message.charAt(0).toUpperCase() + message.slice(1) }];
  };
}
