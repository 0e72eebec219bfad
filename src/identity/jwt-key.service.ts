import { Inject, Injectable } from '@nestjs/common';
import { KeyObject } from 'node:crypto';
import * as jwt from 'jsonwebtoken';

export const JWT_KEY = Symbol('JWT_KEY');

export interface JwtClaims {
  uid: number;
  sid: string;
  exp: number;
}

/** HS256 only (pinned), with a `KeyObject` built once at start-up. */
@Injectable()
export class JwtKeyService {
  constructor(@Inject(JWT_KEY) private readonly key: KeyObject) {}

  sign(uid: number, sid: string, ttlSeconds: number): string {
    return jwt.sign({ sid }, this.key, { algorithm: 'HS256', subject: String(uid), expiresIn: ttlSeconds });
  }

  /** The claims of a valid token, or undefined for anything else (bad signature, alg, expiry, shape). */
  verify(token: string): JwtClaims | undefined {
    try {
      const p = jwt.verify(token, this.key, { algorithms: ['HS256'] });
      if (typeof p !== 'object' || p === null) return undefined;
      const uid = Number(p.sub);
      if (!Number.isInteger(uid) || uid < 1 || typeof p.sid !== 'string' || typeof p.exp !== 'number') return undefined;
      return { uid, sid: p.sid, exp: p.exp };
    } catch {
      return undefined;
    }
  }
}
