import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { PrefsProvider } from '../prefs/PrefsContext';
import { NotificationBell } from '../notifications/NotificationBell';
import { HeaderMenu } from './HeaderMenu';
import { MainNav } from './MainNav';
import { NavItem, navItems } from './nav';

/** Header with the navigation and the account menu; the page below. */
export function Layout() {
  const { user, signOut } = useAuth();
  const { pathname } = useLocation();
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
        <MainNav>
          <ul>
            {navItems('main').map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
            <li>
              <NavMenu summary="Tools" items={navItems('tools')} pathname={pathname} />
            </li>
            <li>
              <NavMenu summary="Automation" items={navItems('automation')} pathname={pathname} />
            </li>
            {user.Admin && (
              <li>
                <NavMenu summary="Admin" items={navItems('admin')} pathname={pathname} />
              </li>
            )}
          </ul>
        </MainNav>
        <NotificationBell />
        <HeaderMenu className="account-menu" summary={<span className="account-name">{user.Name || user.User}</span>} summaryLabel={`Account: ${user.User}`}>
          <div className="menu" role="group" aria-label="Account">
            <p className="muted">
              Signed in as <strong>{user.User}</strong>
              {user.Admin ? ' (administrator)' : ''}
            </p>
            {navItems('account').map((item) => (
              <NavLink key={item.to} to={item.to} className="menu-link">
                {item.label}
              </NavLink>
            ))}
            <button type="button" onClick={() => leave(false)} disabled={leaving}>
              Sign out
            </button>
            <button type="button" onClick={() => leave(true)} disabled={leaving}>
              Sign out everywhere
            </button>
          </div>
        </HeaderMenu>
      </header>
      <main id="main" className="app-main">
        <Outlet />
      </main>
    </PrefsProvider>
  );
}

/** A menu of the navigation bar (Tools, Admin): marked active while one of its pages is open. */
function NavMenu({ summary, items, pathname }: { summary: string; items: NavItem[]; pathname: string }) {
  const active = items.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return (
    <HeaderMenu className={active ? 'nav-menu active' : 'nav-menu'} summary={summary}>
      <ul className="menu">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to}>{item.label}</NavLink>
          </li>
        ))}
      </ul>
    </HeaderMenu>
  );
}
