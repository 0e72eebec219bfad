import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { UsersService } from '../users/users.service';
import { requirePreferencesAccess, requirePreferencesAdmin } from './preferences.access';
import { toUserPreferenceRecordDto, UserPreferenceRecordDto } from './preferences.dto';
import { PreferencesRepository } from './preferences.repository';

/**
 * One arbitrary JSON blob per user (contract: User preferences). The server never interprets
 * it: any JSON value is stored and returned as stored; `null` when there is none.
 */
@Injectable()
export class PreferencesService {
  constructor(
    private readonly repo: PreferencesRepository,
    private readonly users: UsersService,
  ) {}

  /** 404 for an unknown user (checked first, for admins too), then 403 for someone else's. */
  private async target(auth: AuthContext, uid: number): Promise<void> {
    if (!(await this.users.exists(uid))) throw refusal('USER_NOT_FOUND');
    requirePreferencesAccess(auth, uid);
  }

  /** The stored JSON text, or the JSON text `null` when there is none. */
  async get(auth: AuthContext, uid: number): Promise<string> {
    await this.target(auth, uid);
    return (await this.repo.findJson(uid, 'prefs')) ?? 'null';
  }

  async put(auth: AuthContext, uid: number, body: unknown): Promise<void> {
    await this.target(auth, uid);
    if (body === undefined) throw refusal('PREFERENCES_BODY_REQUIRED');
    const json = JSON.stringify(body);
    if (json === undefined) throw refusal('PREFERENCES_INVALID_JSON');
    await this.repo.upsert(uid, 'prefs', json);
  }

  /** Idempotent: deleting preferences that do not exist succeeds. */
  async delete(auth: AuthContext, uid: number): Promise<void> {
    await this.target(auth, uid);
    await this.repo.delete(uid, 'prefs');
  }

  async listAll(auth: AuthContext): Promise<UserPreferenceRecordDto[]> {
    requirePreferencesAdmin(auth);
    return (await this.repo.listAll()).map(toUserPreferenceRecordDto);
  }
}
