/** Pure logic of the tokens table. */
import { ApiToken } from '../api/types';

/** Every word typed in the filter appears in the name, description, a capability or the owner's name. */
export function tokenMatches(t: ApiToken, text: string, owner?: string): boolean {
  const hay = [t.name, t.description, owner ?? '', ...t.capabilities].join('\n').toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}
