/** Tag pattern matching (`*` wildcard), as storage must apply Pushdown.tags. */
import { escapeRegex } from './modules/grep';

export function tagMatcher(patterns: string[]): (name: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map(escapeRegex).join('.*')}$`));
  return (name) => res.some((re) => re.test(name));
}
