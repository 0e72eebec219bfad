import { useMemo, useState } from 'react';
import { ApiToken, ApiTokenWithSecret } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { ActionDialog } from '../ui/Dialog';
import { usePrefs } from '../prefs/PrefsContext';
import { useUserNames } from '../ui/useUserNames';
import { formatTime } from '../ui/time-format';
import { CapabilityArea, groupByArea, summarize, summaryText } from './capability-areas';
import { isExpired } from './expiry';
import { NonAdminSwitch } from './NonAdminSwitch';
import { RefreshDialog } from './RefreshDialog';
import { SecretDialog } from './SecretDialog';
import { TokenDialog } from './TokenDialog';
import { deleteToken, listCapabilities, listTokens, revokeAllMine } from './tokens-api';
import { tokenMatches } from './token-list';
import '../ui/keeping.css';
import '../admin/admin.css';
import './tokens.css';
import { ListTable } from '../ui/TableScroller';
import { ErrorNote } from '../ui/ErrorNote';
import { RowActions } from '../ui/RowActions';
import { useKeptList } from '../ui/ListPage';
import { useCancellable } from '../ui/useCancellable';
import { FilterBar, SearchBox } from '../ui/Filters';

const byNameThenAge = (a: ApiToken, b: ApiToken) => a.name.localeCompare(b.name) || a.createdAt.localeCompare(b.createdAt);

type Open =
  | { kind: 'new' }
  | { kind: 'edit' | 'refresh'; token: ApiToken }
  | { kind: 'secret'; token: ApiTokenWithSecret; refreshed: boolean }
  | { kind: 'delete'; token: ApiToken }
  | { kind: 'revoke-all' };

/**
 * API tokens: a person's own; an administrator's view holds every user's, with the owner. Create
 * with capabilities by area and an expiry, see the secret once, refresh, edit, delete.
 */
export function TokensPage() {
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const all = user.Admin;
  const names = useUserNames(all);
  const { list: tokens, error, reload: load } = useKeptList(listTokens, all, byNameThenAge, 'the tokens');
  const [areas, setAreas] = useState<CapabilityArea[]>([]);
  const [areasError, setAreasError] = useState<string>();
  const [text, setText] = useState('');
  const [open, setOpen] = useState<Open>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const now = new Date();

  useCancellable(
    listCapabilities,
    { answer: (caps) => setAreas(groupByArea(caps)), error: (err) => setAreasError(`The list of capabilities could not be read: ${err.message}`) },
    [],
  );

  const shown = useMemo(() => (tokens ?? []).filter((t) => tokenMatches(t, text, names.get(t.uid))), [tokens, text, names]);
  const mine = (tokens ?? []).filter((t) => t.uid === user.UID).length;

  const done = (message: string) => {
    setOpen(undefined);
    setOutcome({ ok: true, text: message });
    load();
  };
  const showSecret = (token: ApiTokenWithSecret, refreshed: boolean) => {
    setOpen({ kind: 'secret', token, refreshed });
    setOutcome({ ok: true, text: refreshed ? `Refreshed the token “${token.name}”.` : `Created the token “${token.name}”.` });
    load();
  };

  const when = (iso: string) => formatTime(iso, prefs.timeZone).slice(0, 16);
  return (
    <section className="keeping-page admin-page tokens-page" aria-labelledby="tokens-title">
      <div className="page-head">
        <h1 id="tokens-title">API tokens</h1>
        <div className="head-actions">
          {mine > 0 && (
            <button type="button" onClick={() => setOpen({ kind: 'revoke-all' })}>
              Revoke all of mine
            </button>
          )}
          <button type="button" className="primary" onClick={() => setOpen({ kind: 'new' })}>
            New token
          </button>
        </div>
      </div>
      <p className="muted intro">
        A token lets a script or a log shipper use the API without a password: it is sent in the <code>Service-Token</code> header, reaches only what its capabilities name, and
        acts with its owner&apos;s rights (never an administrator&apos;s).
        {all ? ' As an administrator you see every user’s tokens.' : ''}
      </p>
      {all && <NonAdminSwitch />}
      <FilterBar label="Filter the tokens">
        <SearchBox label="Search tokens" value={text} onChange={setText} placeholder={all ? 'name, description, owner, capability…' : 'name, description, capability…'} />
      </FilterBar>
      <p role="status" className={outcome && !outcome.ok ? 'error' : 'muted'}>
        {outcome?.text}
      </p>
      <ErrorNote message={error} />
      {!tokens && !error && <p className="muted">Loading the tokens…</p>}
      {tokens && tokens.length === 0 && <p className="empty">No API tokens yet. Create one with “New token”.</p>}
      {tokens && tokens.length > 0 && (
        <ListTable label="API tokens" columns={['Name', 'Owner', 'Capabilities', 'Expires', 'Last used', 'Created', 'Actions']}>
          {shown.map((t) => (
            <tr key={t.id}>
              <th scope="row" className="entry-name">
                <span>{t.name}</span>
                {t.description && <span className="muted desc">{t.description}</span>}
              </th>
              {all && <td className="text-cell">{names.get(t.uid) ?? `user ${t.uid}`}</td>}
              <td className="text-cell">
                <ul className="held-areas">
                  {summarize(t.capabilities, areas).map((h) => (
                    <li key={h.area}>{summaryText(h)}</li>
                  ))}
                  {t.capabilities.length === 0 && <li className="muted">none</li>}
                </ul>
              </td>
              <td className="text-cell nowrap">
                {isExpired(t.expiresAt, now) ? <span className="badge expired-badge">Expired</span> : null} {t.expiresAt ? when(t.expiresAt) : 'Never'}
              </td>
              <td className="text-cell nowrap">{t.lastUsedAt ? when(t.lastUsedAt) : <span className="muted">never</span>}</td>
              <td className="text-cell nowrap">{when(t.createdAt)}</td>
              <td className="actions-cell">
                <RowActions label={t.name}>
                  <button type="button" onClick={() => setOpen({ kind: 'edit', token: t })} aria-label={`Edit ${t.name}`}>
                    Edit
                  </button>
                  <button type="button" onClick={() => setOpen({ kind: 'refresh', token: t })} aria-label={`Refresh ${t.name}`}>
                    Refresh
                  </button>
                  <button type="button" onClick={() => setOpen({ kind: 'delete', token: t })} aria-label={`Delete ${t.name}`}>
                    Delete
                  </button>
                </RowActions>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {tokens && tokens.length > 0 && shown.length === 0 && <p className="empty">No token matches the filter.</p>}
      {open?.kind === 'new' && <TokenDialog areas={areas} areasError={areasError} onCreated={(t) => showSecret(t, false)} onSaved={done} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'edit' && (
        <TokenDialog token={open.token} areas={areas} areasError={areasError} onCreated={(t) => showSecret(t, false)} onSaved={done} onClose={() => setOpen(undefined)} />
      )}
      {open?.kind === 'refresh' && <RefreshDialog token={open.token} onRefreshed={(t) => showSecret(t, true)} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'secret' && <SecretDialog token={open.token} refreshed={open.refreshed} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'delete' && (
        <ActionDialog
          title="Delete API token"
          message={
            <>
              Delete the token “{open.token.name}”{open.token.uid !== user.UID ? ` of ${names.get(open.token.uid) ?? `user ${open.token.uid}`}` : ''}? Whatever uses it is refused
              from now on. This cannot be undone.
            </>
          }
          action="Delete"
          run={() => deleteToken(open.token.id)}
          onDone={() => done(`Deleted the token “${open.token.name}”.`)}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open?.kind === 'revoke-all' && (
        <ActionDialog
          title="Revoke all of your tokens"
          message={<>Delete all {mine} of your API tokens at once? Everything that uses them is refused from now on. Other users&apos; tokens are kept.</>}
          action="Revoke all"
          run={revokeAllMine}
          onDone={(n) => done(`Revoked ${n} token${n === 1 ? '' : 's'} of yours.`)}
          onClose={() => setOpen(undefined)}
        />
      )}
    </section>
  );
}
