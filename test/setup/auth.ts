import { Server } from 'node:http';
import request from 'supertest';
import { ADMIN_PASSWORD } from './app';

export type Headers = Record<string, string>;

let seq = 0;

/** Logs in through the real endpoint and returns the Authorization header. */
export async function login(http: Server, user: string, pass: string): Promise<Headers> {
  const res = await request(http).post('/api/login').send({ User: user, Pass: pass });
  if (res.status !== 200) throw new Error(`login ${user} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { Authorization: `Bearer ${res.body.JWT}` };
}

export const asAdmin = (http: Server) => login(http, 'admin', ADMIN_PASSWORD);

export interface TestUser {
  uid: number;
  name: string;
  password: string;
  headers: Headers;
}

/** Creates a user through the admin API (unique name) and logs it in. */
export async function createUser(http: Server, admin: Headers, opts: { admin?: boolean; prefix?: string } = {}): Promise<TestUser> {
  const name = `${opts.prefix ?? 'user'}${++seq}_${process.pid}`;
  const password = `pw-${name}-secret`;
  const res = await request(http)
    .post('/api/users')
    .set(admin)
    .send({ User: name, Pass: password, Name: `Name ${name}`, Email: `${name}@example.com`, Admin: opts.admin ?? false });
  if (res.status !== 200) throw new Error(`create user failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { uid: res.body as number, name, password, headers: await login(http, name, password) };
}

/** Creates a group through the admin API. */
export async function createGroup(http: Server, admin: Headers, name?: string): Promise<number> {
  const res = await request(http)
    .post('/api/groups')
    .set(admin)
    .send({ Name: name ?? `group${++seq}_${process.pid}`, Desc: 'test group' });
  if (res.status !== 200) throw new Error(`create group failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as number;
}

export async function addToGroup(http: Server, admin: Headers, uid: number, gid: number): Promise<void> {
  const res = await request(http)
    .post(`/api/users/${uid}/group`)
    .set(admin)
    .send({ GIDs: [gid] });
  if (res.status !== 200) throw new Error(`add to group failed: ${res.status} ${JSON.stringify(res.body)}`);
}
