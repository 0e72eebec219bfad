/**
 * Actionables in results: a page that shows results (the search page, a dashboard) wraps them in
 * `ActionablesProvider`, which reads the person's actionables once and compiles their triggers;
 * `Matched` marks the stretches of a value that a trigger matches as buttons that open the
 * value's menu (a click, Enter or Space, a long press's click on a touch screen, or the context
 * menu); `openSelectionMenu` offers the triggers that act on selected text. The menu runs an
 * action by opening its target in a new tab, so the results the person came from stay.
 */
import { createContext, Fragment, KeyboardEvent, MouseEvent, ReactNode, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { ActionableAction } from '../api/types';
import { useCancellable } from '../ui/useCancellable';
import { listActionables } from './actionables-api';
import { actionTarget, CompiledActionable, compileActionables, menusOf, Offer, offersFor, searchTarget, segmentsOf, SourceRange } from './matching';
import { fillTemplate, getTemplate } from '../templates/templates-api';
import './actionables.css';

interface MenuRequest {
  offers: Offer[];
  /** the value as shown, for the menu's name */
  title: string;
  range?: SourceRange;
  /** the button that opened it (focus goes back to it), or where the pointer was */
  anchor?: HTMLElement;
  point?: { x: number; y: number };
}

interface ValueActions {
  compiled: CompiledActionable[];
  open(req: MenuRequest): void;
}

const ActionsContext = createContext<ValueActions | null>(null);
/** The time range of the search whose results are shown (query actions search the same range). */
export const SourceRangeContext = createContext<SourceRange | undefined>(undefined);

export function ActionablesProvider({ children }: { children: ReactNode }) {
  const [list, setList] = useState<Awaited<ReturnType<typeof listActionables>>>([]);
  // A person without PivotRead (a token) or a failed read: results show as they are.
  useCancellable(() => listActionables(), { answer: setList }, []);
  const compiled = useMemo(() => compileActionables(list), [list]);
  const [menu, setMenu] = useState<MenuRequest>();
  const value = useMemo<ValueActions>(() => ({ compiled, open: setMenu }), [compiled]);
  return (
    <ActionsContext.Provider value={value}>
      {children}
      {menu && <ValueMenu req={menu} onClose={() => setMenu(undefined)} />}
    </ActionsContext.Provider>
  );
}

/** The compiled actionables and the menu, or null outside a provider (then nothing is marked). */
export const useValueActions = (): ValueActions | null => useContext(ActionsContext);

/** A value as text, its matched stretches as buttons that open their menus. */
export function Matched({ text }: { text: string }) {
  const actions = useValueActions();
  const range = useContext(SourceRangeContext);
  const compiled = actions?.compiled;
  const segments = useMemo(() => (compiled?.length ? segmentsOf(compiled, text) : undefined), [compiled, text]);
  if (!actions || !segments || (segments.length === 1 && !segments[0].offers)) return <>{text}</>;
  return (
    <>
      {segments.map((s, i) => {
        const offers = s.offers;
        if (!offers) return <Fragment key={i}>{s.text}</Fragment>;
        const open = (e: MouseEvent<HTMLButtonElement>) => {
          e.preventDefault();
          e.stopPropagation();
          actions.open({ offers, title: s.text, range, anchor: e.currentTarget });
        };
        return (
          <button key={i} type="button" className="value-link" aria-haspopup="menu" onClick={open} onContextMenu={open}>
            {s.text}
          </button>
        );
      })}
    </>
  );
}

/**
 * The context menu over selected text inside `e.currentTarget`: the actionables whose triggers
 * (those that act on selections too) match the selection. False when there is none (the
 * browser's own menu shows).
 */
export function openSelectionMenu(actions: ValueActions | null, e: MouseEvent<HTMLElement>, range?: SourceRange): boolean {
  if (!actions?.compiled.length) return false;
  const sel = window.getSelection();
  const text = sel?.toString().trim() ?? '';
  if (!text || !sel?.anchorNode || !e.currentTarget.contains(sel.anchorNode)) return false;
  const offers = offersFor(actions.compiled, text, true);
  if (!offers.length) return false;
  e.preventDefault();
  actions.open({ offers, title: text.slice(0, 80), range, point: { x: e.clientX, y: e.clientY } });
  return true;
}

/** Opens the menu of a value that is not on the page as text (a chart point), at the pointer. */
export function openValueMenu(actions: ValueActions | null, values: string[], point: { x: number; y: number }, range?: SourceRange): boolean {
  if (!actions?.compiled.length) return false;
  for (const v of values) {
    const offers = offersFor(actions.compiled, v);
    if (offers.length) {
      actions.open({ offers, title: v, range, point });
      return true;
    }
  }
  return false;
}

const MARGIN = 8;

function ValueMenu({ req, onClose }: { req: MenuRequest; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number }>();
  const menus = useMemo(() => menusOf(req.offers), [req.offers]);
  const [problem, setProblem] = useState<string>();

  const close = useCallback(
    (refocus = true) => {
      onClose();
      if (refocus) req.anchor?.focus();
    },
    [onClose, req.anchor],
  );

  // Next to what opened it, inside the window (a phone's too); above it when there is no room below.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = req.anchor?.getBoundingClientRect() ?? { left: req.point?.x ?? 0, right: req.point?.x ?? 0, top: req.point?.y ?? 0, bottom: req.point?.y ?? 0 };
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = Math.max(MARGIN, Math.min(r.left, window.innerWidth - w - MARGIN));
    const below = r.bottom + 4;
    const top = below + h + MARGIN <= window.innerHeight || r.top - h - 4 < MARGIN ? Math.max(MARGIN, Math.min(below, window.innerHeight - h - MARGIN)) : r.top - h - 4;
    setPos({ left, top });
  }, [req]);
  // Once placed (a hidden menu takes no focus), the first item has it.
  const placed = pos !== undefined;
  useEffect(() => {
    if (placed) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [placed, req]);

  /** A saved query's text is the library's (by GUID, with the person's rights); then it opens as a query action does. */
  async function openSaved(guid: string, action: ActionableAction, value: string) {
    setProblem(undefined);
    try {
      const entry = await api<{ Query: string }>(`/api/library/${encodeURIComponent(guid)}`);
      window.open(searchTarget(entry.Query, action, value, req.range).href, '_blank', 'noopener,noreferrer');
      close(false);
    } catch (err) {
      setProblem(`The saved query could not be read: ${(err as Error).message}`);
    }
  }

  /** A template action: the service fills the named variable (else the template's first) with the value; the others take their defaults. */
  async function openTemplate(guid: string, variable: string | undefined, action: ActionableAction, value: string) {
    setProblem(undefined);
    try {
      const template = await getTemplate(guid);
      const name = variable ?? template.Contents.variables[0]?.name;
      const query = await fillTemplate(guid, name ? { [name]: value } : {});
      window.open(searchTarget(query, action, value, req.range).href, '_blank', 'noopener,noreferrer');
      close(false);
    } catch (err) {
      setProblem(`The template could not be run: ${(err as Error).message}`);
    }
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      move(at + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      move(at - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      move(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      move(items.length - 1);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  return (
    <>
      <div className="value-menu-veil" onClick={() => close()} onContextMenu={(e) => (e.preventDefault(), close())} />
      <div
        ref={ref}
        role="menu"
        aria-label={`Actions for ${req.title}`}
        className="value-menu"
        style={pos ? { left: pos.left, top: pos.top } : { left: 0, top: 0, visibility: 'hidden' }}
        onKeyDown={onKeyDown}
      >
        <p className="value-menu-value mono" aria-hidden="true">
          {req.title}
        </p>
        {menus.map((m) => (
          <div key={m.menu} role="group" aria-label={m.menu} className="value-menu-group">
            <p className="value-menu-title" aria-hidden="true">
              {m.menu}
            </p>
            {m.offers.flatMap((o) =>
              o.compiled.actionable.Contents.actions.map((a, i) => {
                const target = actionTarget(a, o.value, req.range);
                const key = `${o.compiled.actionable.ThingUUID}-${i}`;
                const hint = a.description || (target.kind === 'unavailable' ? target.why : undefined);
                if (target.kind === 'savedQuery' || target.kind === 'template')
                  return (
                    <button
                      key={key}
                      type="button"
                      role="menuitem"
                      tabIndex={-1}
                      className="value-menu-item"
                      title={hint ?? undefined}
                      onClick={() => void (target.kind === 'template' ? openTemplate(target.guid, target.variable, a, o.value) : openSaved(target.guid, a, o.value))}
                    >
                      {a.name}
                      {o.value !== req.title && <span className="muted small mono"> {o.value}</span>}
                    </button>
                  );
                if (target.kind === 'unavailable')
                  return (
                    <span key={key} role="menuitem" tabIndex={-1} aria-disabled="true" className="value-menu-item unavailable" title={target.why}>
                      {a.name}
                      <span className="muted small"> {target.why}</span>
                    </span>
                  );
                return (
                  <a
                    key={key}
                    role="menuitem"
                    tabIndex={-1}
                    className="value-menu-item"
                    href={target.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    title={hint ?? undefined}
                    onClick={() => close(false)}
                  >
                    {a.name}
                    {o.value !== req.title && <span className="muted small mono"> {o.value}</span>}
                  </a>
                );
              }),
            )}
          </div>
        ))}
        {problem && (
          <p className="value-menu-problem error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </>
  );
}
