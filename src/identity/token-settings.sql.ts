/** Key in table `setting` of the admin switch "non-admins may use API tokens" (contract: Authentication 8). */
export const NON_ADMIN_TOKENS_KEY = 'NonAdminTokens';

/**
 * SQL: true when non-admin users may use API tokens. `$n` is the config default used while no
 * admin has set the switch. Shared by the token API (TokenSettingsRepository) and token
 * authentication (AuthRepository).
 */
export const nonAdminTokensSql = (defaultParam: string) =>
  `COALESCE((SELECT s.value = 'true'::jsonb FROM setting s WHERE s.key = '${NON_ADMIN_TOKENS_KEY}'), ${defaultParam}::boolean)`;
