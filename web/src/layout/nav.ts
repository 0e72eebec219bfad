/**
 * The header's links, in order. A new page adds its route in routes.tsx and, when it belongs in
 * the header, one line here: `main` pages stand in the navigation bar, `tools` pages (the content
 * people build searches with, as the product's "Tools & Resources") in its Tools menu,
 * `automation` pages in its Automation menu, `admin` pages in its Admin menu (administrators
 * only), `account` pages in the account menu.
 */
export interface NavItem {
  to: string;
  label: string;
  /** where it shows; `admin` only to administrators (the API still decides: this only hides the link) */
  place: 'main' | 'tools' | 'automation' | 'admin' | 'account';
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/search', label: 'Search', place: 'main' },
  { to: '/dashboards', label: 'Dashboards', place: 'main' },
  { to: '/playbooks', label: 'Playbooks', place: 'main' },
  { to: '/library', label: 'Library', place: 'main' },
  { to: '/history', label: 'History', place: 'main' },
  { to: '/searches', label: 'Persistent searches', place: 'main' },
  { to: '/macros', label: 'Macros', place: 'tools' },
  { to: '/templates', label: 'Templates', place: 'tools' },
  { to: '/actionables', label: 'Actionables', place: 'tools' },
  { to: '/extractors', label: 'Extractors', place: 'tools' },
  { to: '/resources', label: 'Resources', place: 'tools' },
  { to: '/files', label: 'Files', place: 'tools' },
  { to: '/automation/scheduled', label: 'Scheduled searches', place: 'automation' },
  { to: '/admin/users', label: 'Users', place: 'admin' },
  { to: '/admin/groups', label: 'Groups', place: 'admin' },
  { to: '/admin/status', label: 'Status', place: 'admin' },
  { to: '/tokens', label: 'API tokens', place: 'account' },
  { to: '/preferences', label: 'Preferences', place: 'account' },
];

export const navItems = (place: NavItem['place']): NavItem[] => NAV_ITEMS.filter((item) => item.place === place);
