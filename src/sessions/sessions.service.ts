import { Injectable } from '@nestjs/common';
import { AuthContext } from '../auth/auth.types';
import { forbidden, notFound } from '../common/errors/app-error';
import { UsersRepository } from '../users/users.repository';
import { SessionListDto, toSessionDto } from './sessions.dto';
import { SessionsRepository } from './sessions.repository';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
  ) {}

  async list(auth: AuthContext, uid: number): Promise<SessionListDto> {
    if (!auth.isAdmin && auth.uid !== uid) throw forbidden('Non-admins may list only their own sessions');
    const user = await this.users.findByUid(uid);
    if (!user) throw notFound('User');
    const rows = await this.sessions.listForUser(uid);
    return { UID: uid, User: user.username, Sessions: rows.filter((s) => s.expiresAt.getTime() > Date.now()).map(toSessionDto) };
  }

  async endCurrent(auth: AuthContext): Promise<void> {
    if (auth.sessionId) await this.sessions.deleteOne(auth.uid, auth.sessionId);
  }

  async endAll(uid: number): Promise<void> {
    await this.sessions.deleteAllForUser(uid, { revokeMintedTokens: true });
  }
}
