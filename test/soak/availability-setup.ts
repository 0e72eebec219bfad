/**
 * What the attacks of availability-attacks.js need on the service, made before the attacker
 * starts (so the hostile windows measure the attacks, not their setup): a finished search of
 * 1 MiB entries (`pages`), a 32 MiB lookup table (`lookups`), a small archive (`quota`) and a
 * 7 MiB archive of a 60 MiB table (`bigimport`), as the attacker. Answers the attacker's settings.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tableArchive } from '../setup/archives';
import { b64, fileForm, Headers, ServiceProcess, sleep } from '../faults/service';

const MiB = 1024 * 1024;

async function finished(svc: ServiceProcess, h: Headers, id: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const r = await svc.request('GET', `/api/searchctrl/${id}/stats`, { headers: h });
    if ((r.body as { Finished?: boolean }).Finished) return;
    await sleep(100);
  }
  throw new Error(`search ${id} did not finish`);
}

async function launch(svc: ServiceProcess, h: Headers, SearchString: string): Promise<string> {
  const range = { SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date(Date.now() + 60_000).toISOString() };
  const r = await svc.request('POST', '/api/searchctrl/launch', { headers: h, json: { SearchString, ...range, Background: true } });
  if (r.status !== 200) throw new Error(`launch ${SearchString}: ${r.status} ${r.text}`);
  const id = (r.body as { SearchID: string }).SearchID;
  await finished(svc, h, id);
  return id;
}

export async function prepareAvailabilityAttacks(svc: ServiceProcess, attacker: Headers, attacks: Set<string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
  if (attacks.has('pages')) {
    for (let from = 0; from < 40; from += 5) {
      const now = Date.now();
      const batch = Array.from({ length: 5 }, (_, k) => ({ TS: new Date(now - from - k).toISOString(), Tag: 'hostpages', Data: b64(Buffer.alloc(MiB, 97 + k)) }));
      const r = await svc.request('PUT', '/api/ingest/json', { headers: attacker, json: batch, timeoutMs: 120_000 });
      if (r.status !== 200) throw new Error(`ingest: ${r.status} ${r.text}`);
    }
    // A few tries, as for `quota` below: a search that ran into the soak's SEARCH_TIMEOUT_MS would
    // leave the attack looping cheap 422 answers instead of reading 1 MiB entries.
    for (let attempt = 1; !out.pagesSearch; attempt++) {
      const id = await launch(svc, attacker, 'tag=hostpages');
      const page = await svc.request('GET', `/api/searchctrl/${id}/renderer/text?first=0&last=1`, { headers: attacker });
      if (page.status === 200) {
        out.pagesSearch = id;
        break;
      }
      process.stderr.write(`hostile soak: the pages search failed (${page.status} ${page.text.slice(0, 120)}), attempt ${attempt}\n`);
      if (attempt === 3) throw new Error(`pages search: ${page.status} ${page.text.slice(0, 300)}`);
      await svc.request('DELETE', `/api/searchctrl/${id}`, { headers: attacker });
    }
  }
  if (attacks.has('lookups')) {
    const created = await svc.request('POST', '/api/resources', { headers: attacker, json: { ResourceName: 'hostlookup', Description: 'big lookup', GroupACL: [] } });
    const guid = (created.body as { GUID: string }).GUID;
    // About 30 MiB (LOOKUP_MAX_BYTES is 32 MiB): 1.4 million rows of two columns.
    const csv = Buffer.from(`a,b\n${Array.from({ length: 1_400_000 }, (_, i) => `key${i},value${i}`).join('\n')}\n`);
    const r = await svc.request('PUT', `/api/resources/${guid}/raw`, { headers: attacker, body: fileForm(csv, 'big.csv'), timeoutMs: 120_000 });
    if (r.status !== 200) throw new Error(`lookup upload: ${r.status} ${r.text}`);
    out.lookupName = 'hostlookup';
  }
  if (attacks.has('quota')) {
    // A few tries: on a busy machine the search may run into the soak's SEARCH_TIMEOUT_MS.
    for (let attempt = 1; !out.smallArchive; attempt++) {
      const id = await launch(svc, attacker, 'tag=hostbig limit 3000');
      const res = await fetch(`${svc.base}/api/searchctrl/${id}/download/archive`, { headers: attacker });
      const body = Buffer.from(await res.arrayBuffer());
      await svc.request('DELETE', `/api/searchctrl/${id}`, { headers: attacker });
      if (res.status === 200) fs.writeFileSync((out.smallArchive = path.join(dir, 'small.tar.gz')), body);
      else if (attempt === 3) throw new Error(`archive download: ${res.status} ${body.toString().slice(0, 300)}`);
    }
  }
  if (attacks.has('bigimport')) {
    out.bigArchive = path.join(dir, 'table.tar.gz');
    fs.writeFileSync(out.bigArchive, (await tableArchive(1_280_000)).archive);
  }
  return out;
}
