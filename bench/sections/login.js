'use strict';
/** Section 6: a login storm, and whether it starves a light request. */
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const L = require('../lib');
const { CFG, ROOT, USER, log, notes, row } = require('../context');

async function loginSection({ base, user }) {
  log(`6. login storm: ${CFG.loginConnections} connections for ${CFG.loginSeconds} s, bcrypt cost ${CFG.bcryptRounds}`);
  const light = (seconds) => L.load(`${base}/api/info/whoami`, { headers: user, connections: 2, seconds, threads: 1 });
  const quiet = await light(CFG.loginSeconds);
  const [storm, busy] = await Promise.all([
    L.load(`${base}/api/login`, {
      method: 'POST',
      body: JSON.stringify({ User: USER.User, Pass: USER.Pass }),
      connections: CFG.loginConnections,
      seconds: CFG.loginSeconds,
      threads: 1,
    }),
    L.sleep(500).then(() => light(CFG.loginSeconds - 1)),
  ]);
  if (storm.errors) notes.push(`login storm: ${storm.errors} non-2xx answers`);
  // Baselines: bcrypt.compare throughput of a bare node process at the same cost, as many at once
  // as the storm sends, and as many as the service allows (BCRYPT_CONCURRENCY, default cores - 1).
  const bare = (concurrency) => {
    const script =
      `const b=require('bcrypt');const h=b.hashSync('${USER.Pass}',${CFG.bcryptRounds});let n=0;const end=Date.now()+${CFG.loginSeconds * 1000};` +
      `const w=async()=>{while(Date.now()<end){await b.compare('${USER.Pass}',h);n++}};Promise.all(Array.from({length:${concurrency}},w)).then(()=>console.log(n/${CFG.loginSeconds}))`;
    return Number(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }).trim());
  };
  const slots = Math.max(1, os.availableParallelism() - 1);
  const g = `6 login (bcrypt cost ${CFG.bcryptRounds}, ${CFG.loginConnections} conns)`;
  row(g, 'POST /api/login logins/s', storm.rps, 'logins/s', `bare bcrypt.compare/s in node, ${CFG.loginConnections} at once`, bare(CFG.loginConnections), 'higher');
  row(g, 'same', storm.rps, 'logins/s', `bare bcrypt.compare/s in node, ${slots} at once (the service's BCRYPT_CONCURRENCY)`, bare(slots), 'higher');
  row(g, 'GET /api/info/whoami p99 during the storm', busy.p99, 'ms', 'same request without the storm', quiet.p99, 'lower');
  row(g, 'GET /api/info/whoami req/s during the storm', busy.rps, 'req/s', 'same request without the storm', quiet.rps, 'higher');
}

module.exports = { loginSection };
