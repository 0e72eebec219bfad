/** The filters of the lists of kept things: what the person types, and the label they pick. */

type Text = string | null | undefined;

/** Does every word typed stand in one of the fields (any case), and is the chosen label (if any) among `labels`? */
export function hasEveryWord(fields: Text[], text: string, labels?: readonly string[] | null, label?: string): boolean {
  if (label && !(labels ?? []).includes(label)) return false;
  const hay = fields.join('\n').toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** Does the text typed, trimmed and as one piece, stand in one of the fields (any case)? Nothing typed matches all. */
export function hasText(fields: Text[], text: string): boolean {
  const t = text.trim().toLowerCase();
  if (!t) return true;
  return fields.some((s) => (s ?? '').toLowerCase().includes(t));
}

/** Every label the things use, sorted. */
export function allLabels(things: ReadonlyArray<{ Labels?: readonly string[] | null }>): string[] {
  return [...new Set(things.flatMap((t) => t.Labels ?? []))].sort((a, b) => a.localeCompare(b));
}
