/** Time zones the person can pick: the browser's, UTC, then every zone the browser knows. */
export function timeZoneChoices(): string[] {
  let all: string[];
  try {
    all = Intl.supportedValuesOf('timeZone');
  } catch {
    all = [];
  }
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'the browser’s zone';

export const PAGE_SIZES = [25, 50, 100, 200, 500, 1000];
