/**
 * The service sets two cookies at sign-in: `console_session` (the JWT, HttpOnly, unreadable here)
 * and `console_signed_in` (no secret), which only tells the console that a session was expected,
 * so a 401 on load can say "your session has ended" rather than show a bare sign-in page.
 */
const MARKER = 'console_signed_in';

export function hadSession(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${MARKER}=`));
}

export function forgetSession(): void {
  document.cookie = `${MARKER}=; Max-Age=0; Path=/; SameSite=Strict`;
}
