import { autocompletion, closeBrackets, closeBracketsKeymap, closeCompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { linter } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { cspNonce } from '../trusted-types';
import { completionKeys } from './completion-keys';
import './macro-hover.css';
import { Catalog, completionSource, macroHover, parseLinter, ParseOutcome, queryHighlighter } from './editor-extensions';

export interface QueryEditorProps {
  value: string;
  onChange(value: string): void;
  /** Enter or Ctrl/Cmd+Enter (Shift+Enter starts a new line) */
  onRun(): void;
  onParsed(outcome: ParseOutcome | undefined): void;
  catalog: Catalog;
  /** id of the element describing the current parse error */
  describedBy?: string;
}

/** The query editor (CodeMirror 6): highlighting, completion, a macro's expansion on hover, parse errors as the person types. */
export function QueryEditor(props: QueryEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const run = (view: EditorView) => {
      closeCompletion(view);
      latest.current.onRun();
      return true;
    };
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          history(),
          closeBrackets(),
          // Nothing is picked when the list opens: Enter runs the query unless the person has moved
          // through the list with the arrow keys; Tab takes the option (the first one if none is picked).
          autocompletion({ override: [completionSource(() => latest.current.catalog)], icons: false, selectOnOpen: false, defaultKeymap: false, interactionDelay: 0 }),
          Prec.highest(keymap.of(completionKeys)),
          Prec.high(
            keymap.of([
              { key: 'Mod-Enter', run },
              { key: 'Enter', run },
            ]),
          ),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap]),
          queryHighlighter,
          macroHover(() => latest.current.catalog),
          linter(
            parseLinter((o) => latest.current.onParsed(o)),
            { delay: 250 },
          ),
          placeholder('tag=syslog grep error | table'),
          EditorView.lineWrapping,
          EditorView.cspNonce.of(cspNonce()),
          EditorView.contentAttributes.of({ 'aria-label': 'Query', ...(latest.current.describedBy ? { 'aria-describedby': latest.current.describedBy } : {}) }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // A query set from outside (a link, the histogram, the library) replaces the text.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
  }, [props.value]);

  return <div className="query-editor" ref={host} />;
}
