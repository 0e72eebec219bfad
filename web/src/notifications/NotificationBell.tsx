import { useEffect, useId, useRef, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { usePrefs } from '../prefs/PrefsContext';
import { formatTime } from '../ui/time-format';
import { ago, levelOf, safeLink, Shown } from './notifications';
import './notifications.css';
import { SendNotificationDialog } from './SendNotificationDialog';
import { useNotifications } from './useNotifications';
import { ErrorNote } from '../ui/ErrorNote';

/**
 * The header's bell: the number of unread notifications, a list to read and dismiss them, and
 * for administrators "Send a notification…". Messages and links are shown as text (a link only
 * when it is http(s)).
 */
export function NotificationBell() {
  const { user } = useAuth();
  const { list, error, refresh, dismiss } = useNotifications();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<string>();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const count = list?.length ?? 0;

  // The panel closes on Escape and on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>('.bell-button')?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const label = list === undefined ? 'Notifications' : count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;

  return (
    <div className="notification-bell" ref={root}>
      <button
        type="button"
        className="bell-button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          setOpen(!open);
          if (!open) void refresh();
        }}
      >
        <BellIcon />
        {count > 0 && (
          <span className="bell-count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && (
        <section id={panelId} className="bell-panel" role="region" aria-label="Notifications">
          <div className="bell-head">
            <h2>Notifications</h2>
            {count > 1 && (
              <button type="button" onClick={() => list && void dismiss(list)}>
                Dismiss all
              </button>
            )}
          </div>
          <ErrorNote message={error} />
          {note && (
            <p className="muted small" role="status">
              {note}
            </p>
          )}
          {list === undefined && !error && <p className="muted">Loading…</p>}
          {list && list.length === 0 && <p className="muted bell-empty">No unread notifications.</p>}
          {list && list.length > 0 && (
            <ul className="bell-list" aria-label="Unread notifications">
              {list.map((n) => (
                <NotificationItem key={n.ID} n={n} onDismiss={() => void dismiss([n])} />
              ))}
            </ul>
          )}
          {user.Admin && (
            <div className="bell-foot">
              <button type="button" onClick={() => setSending(true)}>
                Send a notification…
              </button>
            </div>
          )}
        </section>
      )}
      {sending && (
        <SendNotificationDialog
          onClose={() => setSending(false)}
          onSent={(what) => {
            setSending(false);
            setNote(what);
            void refresh();
          }}
        />
      )}
    </div>
  );
}

function NotificationItem({ n, onDismiss }: { n: Shown; onDismiss(): void }) {
  const { prefs } = usePrefs();
  const level = levelOf(n);
  const href = safeLink(n.Link, window.location.origin);
  const short = n.Msg.length > 60 ? `${n.Msg.slice(0, 60)}…` : n.Msg;
  return (
    <li className={`bell-item level-${level}`}>
      <div className="bell-meta">
        {level !== 'info' && <span className="bell-level">{level}</span>}
        <time dateTime={n.Sent} title={formatTime(n.Sent, prefs.timeZone)}>
          {ago(n.Sent)}
        </time>
        <span className="muted">{n.Broadcast ? 'to everyone' : n.GID ? 'to a group of yours' : 'to you'}</span>
      </div>
      <p className="bell-msg">{n.Msg}</p>
      {n.Link && (href ? <a href={href}>{n.Link}</a> : <p className="muted small bell-link">{n.Link}</p>)}
      <button type="button" className="bell-dismiss" onClick={onDismiss} aria-label={`Dismiss “${short}”`}>
        Dismiss
      </button>
    </li>
  );
}

function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
    </svg>
  );
}
