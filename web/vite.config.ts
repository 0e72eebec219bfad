import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console is served by the service itself (src/console/console.setup.ts) from web/dist.
 * `npm run dev -w web` serves it on :5173 with /api proxied to a service on :8080, websockets too
 * (the status page's /api/ws/stats). The Host header is passed on unchanged (no changeOrigin): the
 * service accepts a console websocket only when its Origin names that same host.
 */
export default defineConfig({
  plugins: [react()],
  // A per-request nonce for the style elements CodeMirror creates: the service replaces this
  // placeholder in index.html and names the nonce in its Content-Security-Policy.
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: {
    // CONSOLE_OUT_DIR: a private build (the browser tests build one per run, so runs at once never share one).
    outDir: process.env.CONSOLE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    // bench/console.js reads which chunks each page loads from the manifest.
    manifest: true,
    // Browsers the console supports all have <link rel=modulepreload>.
    modulePreload: { polyfill: false },
    target: 'es2022',
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
