/**
 * Command lines that show a new token at work, for the dialog that shows its secret: who am I
 * (any valid token), and, when it may ingest, sending a log file and an event through the
 * HEC-compatible collector. The secret goes in the `Service-Token` header (contract:
 * Authentication 4), or in `Authorization: Splunk` for HEC shippers.
 */
export interface TokenExample {
  what: string;
  command: string;
}

/** Single-quoted for a POSIX shell. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function tokenExamples(origin: string, secret: string, capabilities: string[]): TokenExample[] {
  const header = quote(`Service-Token: ${secret}`);
  const out: TokenExample[] = [{ what: 'Check the token (answers the account it acts for)', command: `curl -H ${header} ${quote(`${origin}/api/info/whoami`)}` }];
  if (capabilities.includes('Ingest')) {
    out.push({ what: 'Send a log file, one entry a line, under the tag "app"', command: `curl -H ${header} -F tag=app -F file=@app.log ${quote(`${origin}/api/ingest/lines`)}` });
    out.push({
      what: 'Send events as a Splunk HEC shipper does (syslog-ng http(), Fluent Bit, Vector): the token in "Authorization: Splunk"',
      command: `curl -H ${quote(`Authorization: Splunk ${secret}`)} -d ${quote('{"event":"hello","sourcetype":"app"}')} ${quote(`${origin}/services/collector/event`)}`,
    });
  }
  if (capabilities.includes('SearchHistory')) out.push({ what: 'Read the search history', command: `curl -H ${header} ${quote(`${origin}/api/searchhistory`)}` });
  return out;
}
