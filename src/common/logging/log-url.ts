/**
 * The URL as logs may show it: the path only. Query strings carry credentials (HEC's `?token=`,
 * download links) and user data, so no log line ever records one.
 */
export function logUrl(url: string | undefined): string {
  return (url ?? '').split('?')[0];
}
