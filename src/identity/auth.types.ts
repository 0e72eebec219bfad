import { Capability } from './capabilities';

/** The caller of a request, as the global guard established it. */
export interface AuthContext {
  uid: number;
  username: string;
  /** The account is an admin. Admin rights apply only when `isAdmin` is true. */
  accountAdmin: boolean;
  /** Admin rights apply: an admin account, signed in with a session (never through a token). */
  isAdmin: boolean;
  /** Groups the user belongs to, read on this request. */
  gids: number[];
  sessionId?: string;
  /** The API token making the request: what it may do, and until when (null: never expires). */
  token?: { id: string; capabilities: ReadonlySet<Capability>; expiresAt: Date | null };
}

export interface AuthDeclaration {
  public?: true;
  /** Only admins (never through a token). */
  admin?: true;
  /** What a token needs to reach the route; without one, tokens are refused. */
  capability?: Capability;
  /** Any valid token may call the route (whoami, testauth). */
  anyToken?: true;
  /** The JWT may also come in a `token` cookie (archive import, contract Authentication 3). */
  cookie?: true;
  /**
   * Where the credential comes from. Omitted: a JWT (`Authorization: Bearer`) or an API token
   * (`Service-Token`). `splunk` (Splunk HEC routes): only an API token, sent as
   * `Authorization: Splunk <token>` or `?token=`; refusals carry HEC's codes
   * (`SplunkCredentialError`, answered in HEC's shape by the routes' filter).
   */
  credential?: 'splunk';
}
