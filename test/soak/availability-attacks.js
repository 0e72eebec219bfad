// Attacks of issue 32 items 6 and 7 and issue 24 item 5 for attacker.js, selected through
// HOSTILE_ATTACKS: `pages` (whole-range renderer pages over a search of 1 MiB entries), `compile`
// (POST /api/parse and launches of a 65,536-character query of 7,300 modules), `lookups`
// (launches naming a 32 MiB lookup table), `quota` (searches saved while they run, six imports
// of one archive at once) and `bigimport` (imports of a 7 MiB archive holding a 60 MiB table).
// What they need on the service is made by availability-setup.ts before the attacker starts.
const fs = require('node:fs');

/** `ctx`: the attacker's settings and helpers (see attacker.js). Answers the attacks by name. */
module.exports = function availabilityAttacks({ cfg, base, auth, range, send, note, stopped }) {
  const json = { ...auth, 'Content-Type': 'application/json' };
  /** A request whose JSON answer is wanted: status and body (null when cut off or not JSON). */
  const call = async (path, init = {}) => {
    try {
      const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body };
    } catch {
      return { status: -1, body: null };
    }
  };
  const launch = (SearchString, extra = {}) => call('/api/searchctrl/launch', { method: 'POST', headers: json, body: JSON.stringify({ SearchString, ...range(), ...extra }) });
  const remove = (id) => send(`/api/searchctrl/${id}`, { method: 'DELETE', headers: auth });
  /** Deletes every search of the attacker (their quotas and disk stay bounded from round to round). */
  const removeAll = async () => {
    const list = await call('/api/searchctrl', { headers: auth });
    for (const s of Array.isArray(list.body) ? list.body : []) if (s.ID !== cfg.pagesSearch) await remove(s.ID);
  };
  const files = new Map();
  const upload = (file, name) => {
    if (!files.has(file)) files.set(file, new Blob([fs.readFileSync(file)]));
    const form = new FormData();
    form.append('file', files.get(file), name);
    return send('/api/searchctrl/import', { method: 'POST', headers: auth, body: form });
  };
  const loops = (n, what, once) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        while (!stopped()) note(what, await once());
      }),
    );
  const hugeQuery = (() => {
    let q = 'tag=hostile grep a';
    while (q.length + 16 < 65_536) q += ' | grep a';
    return `${q} | text`;
  })();
  return {
    pages: () => loops(3, 'renderer pages of 1 MiB entries', () => send(`/api/searchctrl/${cfg.pagesSearch}/renderer/text?first=0&last=10000`, { headers: auth })),
    compile: () =>
      Promise.all([
        loops(2, 'parse of a 7,300-module query', () => send('/api/parse', { method: 'POST', headers: json, body: JSON.stringify({ SearchString: hugeQuery }) })),
        loops(2, 'launch of a 7,300-module query', async () => {
          const r = await launch(hugeQuery);
          if (r.status === 200) await remove(r.body.SearchID);
          return r.status;
        }),
      ]),
    // Launches are kept (their sessions time out unpinged after SEARCH_PING_TIMEOUT_SECONDS):
    // past MAX_SEARCHES_PER_USER and the search slots the rest are refused before any table is read.
    lookups: () => loops(4, 'launch naming a 32 MiB lookup table', async () => (await launch(`tag=hostile lookup -r ${cfg.lookupName} a a b | text`)).status),
    quota: async () => {
      while (!stopped()) {
        // Saved at once, while they run: what they store after is counted as it is written.
        const launched = await Promise.all([0, 1, 2].map(() => launch('tag=hostbig', { Background: true })));
        for (const l of launched) {
          note('save while running', l.status === 200 ? await send(`/api/searchctrl/${l.body.SearchID}/save`, { method: 'PATCH', headers: auth }) : l.status);
        }
        for (const status of await Promise.all([0, 1, 2, 3, 4, 5].map(() => upload(cfg.smallArchive, 'small.tar.gz')))) note('six imports at once', status);
        await removeAll();
      }
    },
    bigimport: async () => {
      while (!stopped()) {
        for (const status of await Promise.all([0, 1, 2].map(() => upload(cfg.bigArchive, 'table.tar.gz')))) note('import of a 60 MiB table', status);
        await removeAll();
      }
    },
  };
};
