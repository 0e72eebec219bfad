/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function relativeTime(t: number, now: number): string {
  if (!Number.isFinite(t)) return '';
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
  ];
  let value = Math.round(s / 60);
  let unit = 'minute';
  for (const [secs, name] of units) {
    if (s >= secs * 0.75) {
      value = Math.max(1, Math.round(s / secs));
      unit = name;
    }
  }
  return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
}
