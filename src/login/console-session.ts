/**
 * The web console's sign-in and sign-out (`X-Console: 1`): its JWT goes into an HttpOnly,
 * SameSite=Strict cookie instead of the answer's body, and signing out ends that cookie whatever
 * the answer (an already ended session's 401 too, so the console is left with no stale cookie).
 * The cookies themselves, and how the guard reads them back, are src/identity/console-cookie.ts.
 * Other clients get the JWT in the body and never a cookie.
 */
import { ArgumentsHost, Catch } from '@nestjs/common';
import { Request, Response } from 'express';
import { ErrorFilter } from '../common/http/error-filter';
import { clearedConsoleCookies, consoleSessionCookies, isConsoleRequest } from '../identity/console-cookie';

/** On a console sign-in, sets the session's cookies and tells whether the JWT stays out of the body. */
export function startConsoleSession(req: Request, res: Response, jwt: string): boolean {
  if (!isConsoleRequest(req.headers)) return false;
  for (const cookie of consoleSessionCookies(jwt, req.secure)) res.append('Set-Cookie', cookie);
  return true;
}

/** On a console sign-out (this session or every one), ends both cookies. */
export function endConsoleSession(req: Request, res: Response): void {
  if (!isConsoleRequest(req.headers)) return;
  for (const cookie of clearedConsoleCookies(req.secure)) res.append('Set-Cookie', cookie);
}

/** A refused or failed console sign-out ends the cookies too; the answer is the usual error. */
@Catch()
export class ConsoleSignOutFilter extends ErrorFilter {
  catch(err: unknown, host: ArgumentsHost): void {
    if (host.getType() === 'http') {
      const http = host.switchToHttp();
      const res = http.getResponse<Response>();
      if (!res.headersSent) endConsoleSession(http.getRequest<Request>(), res);
    }
    super.catch(err, host);
  }
}
