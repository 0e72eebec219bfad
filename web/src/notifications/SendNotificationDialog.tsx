import { useId, useState } from 'react';
import { listGroups, listUsers } from '../admin/admin-api';
import { GroupDetails, UserDetails } from '../api/types';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import '../ui/keeping.css';
import { useCancellable } from '../ui/useCancellable';
import { Level, LEVELS } from './notifications';
import { sendNotification, Target } from './notifications-api';

const EXPIRIES = [
  { label: '1 hour', hours: 1 },
  { label: '12 hours', hours: 12 },
  { label: '1 day', hours: 24 },
  { label: '1 week', hours: 168 },
];

/** Administrators: a notification to everyone, one user or one group, with a level, an expiry and an optional link. */
export function SendNotificationDialog({ onSent, onClose }: { onSent(what: string): void; onClose(): void }) {
  const [to, setTo] = useState<Target['kind']>('everyone');
  const [users, setUsers] = useState<UserDetails[]>();
  const [groups, setGroups] = useState<GroupDetails[]>();
  const { error, setError, busy, onSubmit } = useFormAction(act);
  const id = useId();

  useCancellable(listUsers, { answer: setUsers, error: (err) => setError(`The users could not be listed: ${err.message}`) }, []);
  useCancellable(listGroups, { answer: setGroups, error: (err) => setError(`The groups could not be listed: ${err.message}`) }, []);

  function act(f: FormData): FormWork {
    const msg = String(f.get('msg') ?? '').trim();
    if (!msg) return 'Write a message.';
    let target: Target = { kind: 'everyone' };
    let whom = 'everyone';
    if (to === 'user') {
      const uid = Number(f.get('uid'));
      if (!uid) return 'Choose a user.';
      target = { kind: 'user', uid };
      whom = users?.find((u) => u.UID === uid)?.User ?? `user ${uid}`;
    } else if (to === 'group') {
      const gid = Number(f.get('gid'));
      if (!gid) return 'Choose a group.';
      target = { kind: 'group', gid };
      whom = `the group ${groups?.find((g) => g.GID === gid)?.Name ?? gid}`;
    }
    const hours = Number(f.get('expires')) || 12;
    const link = String(f.get('link') ?? '').trim();
    return async () => {
      await sendNotification(target, {
        Msg: msg,
        Level: String(f.get('level') ?? 'info') as Level,
        Expires: new Date(Date.now() + hours * 3600_000).toISOString(),
        ...(link && { Link: link }),
      });
      onSent(`Sent to ${whom}.`);
    };
  }

  return (
    <Dialog title="Send a notification" onClose={onClose} wide>
      <form className="entry-form" onSubmit={onSubmit}>
        <fieldset className="group-choices">
          <legend>Send to</legend>
          {(['everyone', 'user', 'group'] as const).map((k) => (
            <label key={k} className="check">
              <input type="radio" name="to" value={k} checked={to === k} onChange={() => setTo(k)} />
              {k === 'everyone' ? 'Everyone' : k === 'user' ? 'A user' : 'A group'}
            </label>
          ))}
        </fieldset>
        {to === 'user' && (
          <div className="select-field">
            <label htmlFor={`${id}-uid`}>User</label>
            <select id={`${id}-uid`} name="uid" defaultValue="" required>
              <option value="" disabled>
                {users ? 'Choose a user' : 'Loading…'}
              </option>
              {users?.map((u) => (
                <option key={u.UID} value={u.UID}>
                  {u.User}
                  {u.Name ? ` (${u.Name})` : ''}
                </option>
              ))}
            </select>
          </div>
        )}
        {to === 'group' && (
          <div className="select-field">
            <label htmlFor={`${id}-gid`}>Group</label>
            <select id={`${id}-gid`} name="gid" defaultValue="" required>
              <option value="" disabled>
                {groups ? (groups.length ? 'Choose a group' : 'There are no groups') : 'Loading…'}
              </option>
              {groups?.map((g) => (
                <option key={g.GID} value={g.GID}>
                  {g.Name}
                </option>
              ))}
            </select>
          </div>
        )}
        <label>
          Message
          <textarea name="msg" rows={3} required maxLength={4096} data-autofocus />
        </label>
        <div className="send-row">
          <div className="select-field">
            <label htmlFor={`${id}-level`}>Level</label>
            <select id={`${id}-level`} name="level" defaultValue="info">
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <div className="select-field">
            <label htmlFor={`${id}-expires`}>Expires after</label>
            <select id={`${id}-expires`} name="expires" defaultValue="12">
              {EXPIRIES.map((x) => (
                <option key={x.hours} value={x.hours}>
                  {x.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <label>
          Link (optional)
          <input name="link" type="text" inputMode="url" maxLength={2048} placeholder="https://… or /dashboards/…" />
        </label>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Sending…' : 'Send'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
