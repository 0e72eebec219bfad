'use strict';
/**
 * Baseline of the API section: a bare node:http server doing by hand what GET /api/dashboards
 * does (verify the HS256 JWT or digest the Service-Token, one session/token lookup joined with the
 * user, the same dashboards query via pg, JSON out). Env: DATABASE_URL, JWT_SECRET, PORT, POOL.
 * Prints "listening" when ready.
 */
const { createHash, createSecretKey } = require('node:crypto');
const http = require('node:http');
const jwt = require('jsonwebtoken');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL || 20) });
// A KeyObject built once, as the service does (a string secret is re-imported on every verify).
const secret = createSecretKey(Buffer.from(process.env.JWT_SECRET, 'utf8'));

const SESSION_SQL = `SELECT s.id, s.expires_at, u.uid, u.admin, u.locked,
       ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids
  FROM session s JOIN app_user u ON u.uid = s.uid WHERE s.id = $1`;
const TOKEN_SQL = `SELECT t.id, t.capabilities, t.expires_at, u.uid, u.admin, u.locked,
       ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids
  FROM api_token t JOIN app_user u ON u.uid = t.uid WHERE t.secret_digest = $1`;
const DASHBOARDS_SQL = `SELECT id, guid, uid, name, description, gids, global, labels, data, created_at, updated_at
  FROM dashboard d WHERE (d.uid = $1 OR d.gids && $2::integer[] OR d.global) ORDER BY d.id`;

async function identity(req) {
  const tok = req.headers['service-token'];
  if (typeof tok === 'string') {
    const r = (await pool.query(TOKEN_SQL, [createHash('sha256').update(tok).digest()])).rows[0];
    return r && !r.locked ? r : undefined;
  }
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  if (!m) return undefined;
  let claims;
  try {
    claims = jwt.verify(m[1], secret, { algorithms: ['HS256'] });
  } catch {
    return undefined;
  }
  const r = (await pool.query(SESSION_SQL, [claims.sid])).rows[0];
  return r && String(r.uid) === claims.sub && !r.locked && r.expires_at > new Date() ? r : undefined;
}

const server = http.createServer(async (req, res) => {
  try {
    const who = await identity(req);
    if (!who) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      return res.end('{"Error":"unauthorized"}');
    }
    const rows = (await pool.query(DASHBOARDS_SQL, [who.uid, who.gids])).rows;
    const body = JSON.stringify(
      rows.map((d) => ({
        ID: Number(d.id), GUID: d.guid, Name: d.name, Description: d.description, UID: d.uid, GIDs: d.gids, Global: d.global,
        Created: d.created_at.toISOString(), Updated: d.updated_at.toISOString(), Labels: d.labels, Data: d.data, Synced: false,
      })),
    );
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(body);
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
