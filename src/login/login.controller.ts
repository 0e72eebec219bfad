import { ArgumentsHost, Body, Catch, Controller, Delete, ExceptionFilter, HttpCode, Post, Put, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Auth, CurrentAuth, Public } from '../identity/auth.decorators';
import { LoginDto, LoginResponseDto } from './login.dto';
import { AuthContext } from '../identity/auth.types';
import { LoginFailedError, LoginService } from './login.service';
import { SessionsService } from '../sessions/sessions.service';
import { ConsoleSignOutFilter, endConsoleSession, startConsoleSession } from './console-session';

/** Failed logins keep the product's body shape, with `Error` and `Code` added like every other 4xx. */
@Catch(LoginFailedError)
class LoginFailedFilter implements ExceptionFilter {
  catch(err: LoginFailedError, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().status(err.status).json({ LoginStatus: false, Reason: err.message, Error: err.message, Code: err.code });
  }
}

@ApiTags('login')
@Controller('api')
export class LoginController {
  constructor(
    private readonly login: LoginService,
    private readonly sessions: SessionsService,
  ) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @UseFilters(LoginFailedFilter)
  @ApiOperation({ summary: 'Log in with JSON or form fields User and Pass' })
  async doLogin(@Body() dto: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LoginResponseDto> {
    const jwt = await this.login.login(dto.User, dto.Pass, clientAddress(req));
    // The web console keeps its JWT in an HttpOnly cookie, out of its scripts' reach.
    return startConsoleSession(req, res, jwt) ? { LoginStatus: true } : { LoginStatus: true, JWT: jwt };
  }

  @Put('logout')
  @Auth()
  @UseFilters(ConsoleSignOutFilter)
  @ApiOperation({ summary: 'End the current session' })
  async logout(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<null> {
    await this.sessions.endCurrent(auth);
    endConsoleSession(req, res);
    return null;
  }

  @Delete('logout')
  @Auth()
  @UseFilters(ConsoleSignOutFilter)
  @ApiOperation({ summary: 'End every session of the user' })
  async logoutAll(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<null> {
    await this.sessions.logOutEverywhere(auth.uid);
    endConsoleSession(req, res);
    return null;
  }
}

export function clientAddress(req: Request): string {
  return (req.ip ?? req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
