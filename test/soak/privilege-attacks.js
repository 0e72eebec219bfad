// Attacks of issue 32 items 1-3 for attacker.js, selected through HOSTILE_ATTACKS `privilege`: in
// a loop, a narrow short-lived token tries to widen itself or mint a wider or permanent token, a
// group member tries to share a copy of the admin's global library entry (same GUID) with the
// group, and a launch tries to run a `table -save` as a query of the admin's dashboard without
// consent. Every attempt must be refused with 403 (hostile.soak-spec.ts checks it); what they
// need (the group, the admin's entry and dashboard) is made by privilege-setup.ts. With other
// attacks running, the refusal brake may answer an attempt 429 before it is read: also a refusal.

/** `ctx`: the attacker's settings and helpers (see attacker.js). Answers the attacks by name. */
module.exports = function privilegeAttacks({ cfg, base, auth, range, note, stopped }) {
  const status = async (path, init) => {
    try {
      const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return -1;
    }
  };
  const json = (headers, method, body) => ({ method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const ALL = ['Search', 'Download', 'SaveSearch', 'TokenRead', 'TokenWrite', 'ResourceWrite', 'DashboardWrite', 'LibraryWrite'];

  return {
    privilege: async () => {
      // A narrow, short-lived token, made with the attacker's session (again after a refusal:
      // the refusal brake may hold this user for the other attacks' refusals).
      const narrowToken = { name: 'narrow', capabilities: ['TokenWrite'], expiresAt: new Date(Date.now() + 3600_000).toISOString() };
      let narrow;
      while (!narrow?.token && !stopped()) {
        const made = await fetch(`${base}/api/tokens`, json(auth, 'POST', narrowToken)).catch(() => undefined);
        narrow = made?.status === 200 ? await made.json() : await new Promise((r) => setTimeout(r, 1000));
      }
      if (!narrow?.token) return;
      const tok = { 'Service-Token': narrow.token };
      const attempts = [
        ['privilege: a token mints a wider token', () => status('/api/tokens', json(tok, 'POST', { name: 'wide', capabilities: ALL }))],
        ['privilege: a token mints a permanent token', () => status('/api/tokens', json(tok, 'POST', { name: 'forever', capabilities: ['TokenWrite'], expiresAt: null }))],
        ['privilege: a token widens itself', () => status(`/api/tokens/${narrow.id}`, json(tok, 'PUT', { capabilities: ALL }))],
        ['privilege: a token drops its expiry', () => status(`/api/tokens/${narrow.id}`, json(tok, 'PUT', { expiresAt: null }))],
        ['privilege: a token refreshes itself forever', () => status(`/api/tokens/${narrow.id}`, json(tok, 'PATCH', { expiresAt: null }))],
        [
          "privilege: a member shares a copy of the admin's global GUID",
          () => status('/api/library', json(auth, 'POST', { Name: 'hijack', Query: 'tag=hostile | table -save victims', GUID: cfg.adminGuid, GIDs: [Number(cfg.groupId)] })),
        ],
        [
          "privilege: a table -save runs as another owner's dashboard query",
          () =>
            status(
              '/api/searchctrl/launch',
              json(auth, 'POST', { SearchString: 'tag=hostile count | table -save stolen', ...range(), LaunchInfo: { method: 'dashboard', reference: cfg.adminDashboard } }),
            ),
        ],
      ];
      while (!stopped()) for (const [what, attempt] of attempts) note(what, await attempt());
    },
  };
};
