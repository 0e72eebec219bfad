/** Reads the `token` cookie (a JWT, as the product's tmptoken) from a Cookie header. */
export function tokenCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === 'token') {
      const v = part.slice(eq + 1).trim();
      return v.length > 0 && v.length <= 4096 ? v : undefined;
    }
  }
  return undefined;
}
