import { Controller, createParamDecorator, Delete, ExecutionContext, Get, Param, Put, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { IdPipe } from '../common/validation/id.pipe';
import { UserPreferenceRecordDto } from './preferences.dto';
import { PreferencesService } from './preferences.service';

/**
 * The raw JSON body, any JSON value (the global parser runs with `strict: false`). It never goes
 * through a DTO class: the server does not interpret preferences. Not JSON -> 415; empty -> 400.
 */
export const RawJsonBody = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const type = String(req.headers['content-type'] ?? '');
  if (!/json/i.test(type)) throw refusal('PREFERENCES_NOT_JSON');
  if (req.headers['content-length'] === '0' || req.body === undefined) throw refusal('PREFERENCES_BODY_EMPTY');
  return req.body as unknown;
});

/** Declared before UsersModule's controller so `GET /api/users/preferences` is not taken for `GET /api/users/:id`. */
@ApiTags('preferences')
@Controller('api/users')
export class PreferencesController {
  constructor(private readonly prefs: PreferencesService) {}

  @Get('preferences')
  @Auth({ admin: true })
  @ApiOkResponse({ type: [UserPreferenceRecordDto] })
  listAll(@CurrentAuth() auth: AuthContext): Promise<UserPreferenceRecordDto[]> {
    return this.prefs.listAll(auth);
  }

  @Get(':id/preferences')
  @Auth({ capability: 'PreferencesRead' })
  @ApiOkResponse({ description: 'The stored JSON, any JSON value; null when none is stored' })
  async get(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const json = await this.prefs.get(auth, uid);
    res.type('application/json');
    return json;
  }

  @Put(':id/preferences')
  @Auth({ capability: 'PreferencesWrite' })
  @ApiBody({ description: 'Any JSON value', schema: {} })
  @ApiOkResponse({ description: 'null' })
  async put(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @RawJsonBody() body: unknown): Promise<null> {
    await this.prefs.put(auth, uid, body);
    return null;
  }

  @Delete(':id/preferences')
  @Auth({ capability: 'PreferencesWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.prefs.delete(auth, uid);
    return null;
  }
}
