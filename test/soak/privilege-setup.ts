/**
 * What the attacks of privilege-attacks.js need on the service, made before the attacker starts:
 * a group the attacker belongs to, an admin's global library entry (its GUID) and an admin's
 * dashboard (its ID). Answers the attacker's settings.
 */
import { Headers, ServiceProcess } from '../faults/service';

export async function preparePrivilegeAttacks(svc: ServiceProcess, admin: Headers, attacker: Headers, attacks: Set<string>): Promise<Record<string, string>> {
  if (!attacks.has('privilege')) return {};
  const ok = (what: string, r: { status: number; text: string; body: unknown }) => {
    if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const uid = (ok('whoami', await svc.request('GET', '/api/info/whoami', { headers: attacker })) as { UID: number }).UID;
  const groupId = ok('group', await svc.request('POST', '/api/groups', { headers: admin, json: { Name: 'hostile-group', Desc: 'the attacker and others' } })) as number;
  ok('membership', await svc.request('POST', `/api/users/${uid}/group`, { headers: admin, json: { GIDs: [groupId] } }));
  const entry = ok('entry', await svc.request('POST', '/api/library', { headers: admin, json: { Name: 'admins', Query: 'tag=hostile count', Global: true } })) as { GUID: string };
  const dashboard = ok('dashboard', await svc.request('POST', '/api/dashboards', { headers: admin, json: { Name: 'admins', GIDs: [groupId], Data: {} } })) as number;
  return { groupId: String(groupId), adminGuid: entry.GUID, adminDashboard: String(dashboard) };
}
