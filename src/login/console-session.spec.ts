import { INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import express from 'express';
import request from 'supertest';
import { refusal } from '../common/errors/app-error';
import { ErrorFilter } from '../common/http/error-filter';
import { JsonNullExpressAdapter } from '../common/http/json-null.adapter';
import { APP_CONFIG } from '../config/env.schema';
import { AuthGuard } from '../identity/auth.guard';
import { AuthService } from '../identity/auth.service';
import { AuthContext } from '../identity/auth.types';
import { Credential } from '../identity/credentials';
import { SessionsService } from '../sessions/sessions.service';
import { LoginController } from './login.controller';
import { LoginService } from './login.service';

const jwtWithExp = (exp: number) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: '1', exp })).toString('base64url')}.c2ln`;
const JWT = jwtWithExp(Math.floor(Date.now() / 1000) + 600);
const ENDED = 'eyJhbGciOiJIUzI1NiJ9.ZW5kZWQ.c2ln';
const CLEARED = ['console_session=; Path=/api; SameSite=Strict; Max-Age=0; HttpOnly', 'console_signed_in=; Path=/; SameSite=Strict; Max-Age=0'];
const caller: AuthContext = { uid: 7, username: 'u', accountAdmin: false, isAdmin: false, gids: [], sessionId: 's' };

/**
 * The login controller behind the real guard and error filter, with stand-ins for the services:
 * the stand-in AuthService accepts the JWT `JWT` (wherever the guard read it from) and nothing else.
 */
describe("the console's sign-in and sign-out", () => {
  let app: INestApplication;
  const seen: Credential[] = [];
  let freshJwt = false;
  const ended: string[] = [];

  beforeAll(async () => {
    const auth = {
      authenticate: (c: Credential) => {
        seen.push(c);
        return c.kind === 'jwt' && c.jwt === JWT ? Promise.resolve(caller) : Promise.reject(refusal('SESSION_ENDED'));
      },
    };
    const moduleRef = await Test.createTestingModule({
      controllers: [LoginController],
      providers: [
        // A fresh JWT at each sign-in (its lifetime is the cookie's), except for `JWT` itself.
        { provide: LoginService, useValue: { login: () => Promise.resolve(freshJwt ? jwtWithExp(Math.floor(Date.now() / 1000) + 600) : JWT) } },
        { provide: SessionsService, useValue: { endCurrent: () => Promise.resolve(ended.push('current')), logOutEverywhere: () => Promise.resolve(ended.push('all')) } },
        { provide: AuthService, useValue: auth },
        { provide: APP_CONFIG, useValue: { corsOrigins: [] } },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    }).compile();
    app = moduleRef.createNestApplication(new JsonNullExpressAdapter(), { bodyParser: false });
    app.use(express.json());
    app.useGlobalFilters(new ErrorFilter());
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    seen.length = 0;
    ended.length = 0;
  });

  const http = () => request(app.getHttpServer());
  const login = { User: 'u', Pass: 'p' };

  it('moves the JWT of a console sign-in into an HttpOnly SameSite=Strict cookie', async () => {
    freshJwt = true;
    try {
      const res = await http().post('/api/login').set('X-Console', '1').send(login).expect(200);
      expect(res.body).toEqual({ LoginStatus: true });
      expect(res.headers['set-cookie']).toEqual([
        expect.stringMatching(/^console_session=eyJ[\w.-]+; Path=\/api; SameSite=Strict; Max-Age=(599|600); HttpOnly$/),
        'console_signed_in=1; Path=/; SameSite=Strict; Max-Age=2592000',
      ]);
    } finally {
      freshJwt = false;
    }
  });

  it('marks the cookies Secure over HTTPS', async () => {
    app.getHttpAdapter().getInstance().set('trust proxy', true);
    try {
      const res = await http().post('/api/login').set({ 'X-Console': '1', 'X-Forwarded-Proto': 'https' }).send(login).expect(200);
      expect((res.headers['set-cookie'] as unknown as string[]).every((c) => c.endsWith('; Secure'))).toBe(true);
    } finally {
      app.getHttpAdapter().getInstance().set('trust proxy', false);
    }
  });

  it('leaves other clients alone: their sign-in answers with the JWT and sets no cookie', async () => {
    const res = await http().post('/api/login').send(login).expect(200);
    expect(res.body).toEqual({ LoginStatus: true, JWT });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs the console in by its cookie on later requests, and clears both cookies when it signs out (this session or all)', async () => {
    for (const method of ['put', 'delete'] as const) {
      const res = await http()
        [method]('/api/logout')
        .set({ 'X-Console': '1', Cookie: `console_signed_in=1; console_session=${JWT}` })
        .expect(200);
      expect(res.text).toBe('null');
      expect(res.headers['set-cookie']).toEqual(CLEARED);
    }
    expect(seen).toEqual([
      { kind: 'jwt', jwt: JWT },
      { kind: 'jwt', jwt: JWT },
    ]);
    expect(ended).toEqual(['current', 'all']);
  });

  it('clears them also when the session had already ended or no cookie came (401)', async () => {
    for (const method of ['put', 'delete'] as const) {
      const ended401 = await http()
        [method]('/api/logout')
        .set({ 'X-Console': '1', Cookie: `console_session=${ENDED}` })
        .expect(401);
      expect(ended401.body).toMatchObject({ Error: 'Session has ended; log in again' });
      expect(ended401.headers['set-cookie']).toEqual(CLEARED);
      const none = await http()[method]('/api/logout').set('X-Console', '1').expect(401);
      expect(none.headers['set-cookie']).toEqual(CLEARED);
    }
    expect(ended).toEqual([]);
  });

  it('sets no cookie when another client signs out, and reads no console cookie without X-Console', async () => {
    const res = await http().put('/api/logout').set('Authorization', `Bearer ${JWT}`).expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const refused = await http().put('/api/logout').set('Cookie', `console_session=${JWT}`).expect(401);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.body).toMatchObject({ Error: 'Authentication required: send Authorization: Bearer <JWT> or a Service-Token' });
  });
});
