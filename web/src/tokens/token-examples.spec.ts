import { describe, expect, it } from '@jest/globals';
import { tokenExamples } from './token-examples';

describe('token examples', () => {
  const secret = 'sst_abc';
  it('always shows a whoami check with the Service-Token header', () => {
    expect(tokenExamples('https://logs.example', secret, ['Search'])).toEqual([
      { what: 'Check the token (answers the account it acts for)', command: "curl -H 'Service-Token: sst_abc' 'https://logs.example/api/info/whoami'" },
    ]);
  });

  it('adds a log upload and a HEC event when the token may ingest, and the history when it may read it', () => {
    const ex = tokenExamples('http://127.0.0.1:8080', secret, ['Ingest', 'SearchHistory']);
    expect(ex.map((e) => e.command)).toEqual([
      "curl -H 'Service-Token: sst_abc' 'http://127.0.0.1:8080/api/info/whoami'",
      "curl -H 'Service-Token: sst_abc' -F tag=app -F file=@app.log 'http://127.0.0.1:8080/api/ingest/lines'",
      `curl -H 'Authorization: Splunk sst_abc' -d '{"event":"hello","sourcetype":"app"}' 'http://127.0.0.1:8080/services/collector/event'`,
      "curl -H 'Service-Token: sst_abc' 'http://127.0.0.1:8080/api/searchhistory'",
    ]);
  });

  it('quotes for the shell', () => {
    expect(tokenExamples("http://x/it's", secret, [])[0].command).toBe("curl -H 'Service-Token: sst_abc' 'http://x/it'\\''s/api/info/whoami'");
  });
});
