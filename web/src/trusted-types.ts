/**
 * Imported first. The console's Content-Security-Policy requires Trusted Types: no string ever
 * becomes HTML. Libraries still clear containers with `innerHTML = ''` (ECharts' canvas), so the
 * default policy lets exactly the empty string through and refuses everything else.
 */
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createHTML(s: string): string }): unknown;
}

const tt = (window as unknown as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
if (tt?.createPolicy) {
  tt.createPolicy('default', {
    createHTML(s: string): string {
      if (s === '') return s;
      throw new TypeError('The console never turns text into HTML');
    },
  });
}

/** The per-response nonce the service puts in index.html for style elements (CodeMirror's). */
export function cspNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
}
