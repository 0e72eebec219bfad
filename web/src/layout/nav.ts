/**
 * The main navigation, in order. A new page adds its route in routes.tsx and, when it belongs in
 * the header, one line here.
 */
export interface NavItem {
  to: string;
  label: string;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/search', label: 'Search' },
  { to: '/library', label: 'Library' },
  { to: '/history', label: 'History' },
  { to: '/searches', label: 'Persistent searches' },
  { to: '/preferences', label: 'Preferences' },
];
