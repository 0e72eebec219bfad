import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { PrefsProvider } from '../prefs/PrefsContext';
import { NAV_ITEMS } from './nav';

/** Header with the navigation and the account menu; the page below. */
export function Layout() {
  const { user, signOut } = useAuth();
  // Signing out first lets the pages leave their searches (a moment): the buttons wait meanwhile.
  const [leaving, setLeaving] = useState(false);
  const leave = (everywhere: boolean) => {
    setLeaving(true);
    void signOut(everywhere);
  };
  return (
    <PrefsProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <NavLink to="/search" className="brand" aria-label="Search console home">
          <img src="/favicon.svg" alt="" width="20" height="20" />
          <span>Search service</span>
        </NavLink>
        <nav aria-label="Main">
          <ul>
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <details className="account-menu">
          <summary aria-label={`Account: ${user.User}`}>{user.Name || user.User}</summary>
          <div className="menu" role="group" aria-label="Account">
            <p className="muted">
              Signed in as <strong>{user.User}</strong>
              {user.Admin ? ' (administrator)' : ''}
            </p>
            <button type="button" onClick={() => leave(false)} disabled={leaving}>
              Sign out
            </button>
            <button type="button" onClick={() => leave(true)} disabled={leaving}>
              Sign out everywhere
            </button>
          </div>
        </details>
      </header>
      <main id="main" className="app-main">
        <Outlet />
      </main>
    </PrefsProvider>
  );
}
