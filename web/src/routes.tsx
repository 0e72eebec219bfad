/**
 * The routing table. A page is one entry: `path` under the signed-in layout, and `lazy` so its
 * code (editor, charts) loads only when someone opens it; the sign-in page stays small.
 * Add the page to layout/nav.ts too when it belongs in the header.
 */
import { Navigate, RouteObject } from 'react-router';
import { LoginPage } from './auth/LoginPage';
import { RequireAuth } from './auth/RequireAuth';
import { Layout } from './layout/Layout';
import { NotFound, RouteError } from './layout/NotFound';

export const pageRoutes: RouteObject[] = [
  { path: 'search', lazy: async () => ({ Component: (await import('./search/SearchPage')).SearchPage }) },
  { path: 'library', lazy: async () => ({ Component: (await import('./library/LibraryPage')).LibraryPage }) },
  { path: 'macros', lazy: async () => ({ Component: (await import('./macros/MacrosPage')).MacrosPage }) },
  { path: 'extractors', lazy: async () => ({ Component: (await import('./autoextractors/AutoextractorsPage')).AutoextractorsPage }) },
  { path: 'templates', lazy: async () => ({ Component: (await import('./templates/TemplatesPage')).TemplatesPage }) },
  { path: 'playbooks', lazy: async () => ({ Component: (await import('./playbooks/PlaybooksPage')).PlaybooksPage }) },
  { path: 'playbooks/new', lazy: async () => ({ Component: (await import('./playbooks/PlaybookPage')).PlaybookEditPage }) },
  { path: 'playbooks/:id', lazy: async () => ({ Component: (await import('./playbooks/PlaybookPage')).PlaybookPage }) },
  { path: 'playbooks/:id/edit', lazy: async () => ({ Component: (await import('./playbooks/PlaybookPage')).PlaybookEditPage }) },
  { path: 'actionables', lazy: async () => ({ Component: (await import('./actionables/ActionablesPage')).ActionablesPage }) },
  { path: 'automation/scheduled', lazy: async () => ({ Component: (await import('./scheduled/ScheduledPage')).ScheduledPage }) },
  { path: 'history', lazy: async () => ({ Component: (await import('./history/HistoryPage')).HistoryPage }) },
  { path: 'searches', lazy: async () => ({ Component: (await import('./searches/SearchesPage')).SearchesPage }) },
  { path: 'preferences', lazy: async () => ({ Component: (await import('./preferences/PreferencesPage')).PreferencesPage }) },
  { path: 'dashboards', lazy: async () => ({ Component: (await import('./dashboards/DashboardsPage')).DashboardsPage }) },
  { path: 'dashboards/:ref', lazy: async () => ({ Component: (await import('./dashboards/DashboardPage')).DashboardPage }) },
  { path: 'resources', lazy: async () => ({ Component: (await import('./resources/ResourcesPage')).ResourcesPage }) },
  { path: 'files', lazy: async () => ({ Component: (await import('./files/FilesPage')).FilesPage }) },
  { path: 'tokens', lazy: async () => ({ Component: (await import('./tokens/TokensPage')).TokensPage }) },
  { path: 'admin/users', lazy: async () => ({ Component: (await import('./admin/UsersPage')).UsersPage }) },
  { path: 'admin/groups', lazy: async () => ({ Component: (await import('./admin/GroupsPage')).GroupsPage }) },
  { path: 'admin/status', lazy: async () => ({ Component: (await import('./status/StatusPage')).StatusPage }) },
];

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
  {
    path: '/',
    element: (
      <RequireAuth>
        <Layout />
      </RequireAuth>
    ),
    errorElement: <RouteError />,
    children: [{ index: true, element: <Navigate to="/search" replace /> }, ...pageRoutes, { path: '*', element: <NotFound /> }],
  },
];
