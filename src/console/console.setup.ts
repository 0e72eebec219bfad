/**
 * The web console (web/, built by Vite into web/dist) served by the service itself: hashed
 * assets with year-long caching (precompressed copies when the browser takes them), client-side
 * routes (/search, /library, ...) answered with index.html under a strict Content-Security-Policy.
 * The console's session cookie is no business of this file: login sets it (src/login) and the
 * guard reads it (src/identity/console-cookie.ts). `/api/...`, `/services/...` and websockets
 * are untouched: an unknown `/api/...` path still gets the JSON 404. Without a build
 * the service runs API-only and says how to build the console.
 */
import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The placeholder Vite writes where each response's nonce goes (web/vite.config.ts `html.cspNonce`). */
export const NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/**
 * No inline script, no eval, nothing from elsewhere. Styles: the files, plus the style elements
 * CodeMirror creates, which carry this response's nonce. Trusted Types: no string becomes HTML
 * (the console's default policy lets only the empty string through, web/src/trusted-types.ts).
 */
export const consoleCsp = (nonce: string): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types default',
  ].join('; ');

export const DEFAULT_CONSOLE_DIR = path.resolve(__dirname, '..', '..', 'web', 'dist');

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json' };
const IMMUTABLE = 'public, max-age=31536000, immutable';
const isApi = (p: string) => p === '/api' || p.startsWith('/api/') || p === '/services' || p.startsWith('/services/');

/** `.br`/`.gz` beside a hashed asset (web/scripts/compress.mjs), sent when the browser accepts it. */
function precompressed(assets: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const name = req.path.slice(1);
    const type = TYPES[path.extname(name)];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !type || !/^[\w.-]+$/.test(name)) return next();
    const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
    const ext = accepted === 'br' ? '.br' : accepted === 'gzip' ? '.gz' : undefined;
    if (!ext || !fs.existsSync(path.join(assets, name + ext))) return next();
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', accepted as string);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', IMMUTABLE);
    res.sendFile(name + ext, { root: assets, dotfiles: 'deny', cacheControl: false }, (err) => err && next());
  };
}

/** index.html for every client-side route (`/`, `/search`, `/library/...`), with a fresh nonce. */
function sendIndex(index: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isApi(req.path) || (path.extname(req.path) && req.path !== '/index.html')) return next();
    fs.readFile(index, 'utf8', (err, html) => {
      if (err) return next();
      const nonce = randomBytes(18).toString('base64');
      res.setHeader('Content-Security-Policy', consoleCsp(nonce));
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(html.replaceAll(NONCE_PLACEHOLDER, nonce));
    });
  };
}

/** Call before the app listens (routes registered later come after these). Returns whether the console is served. */
export function mountConsole(app: NestExpressApplication, dir = DEFAULT_CONSOLE_DIR): boolean {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) {
    new Logger('Console').warn(`web console not built (${index} missing): serving the API only. Build it with \`npm run build:web\` (npm start does).`);
    return false;
  }
  const assets = path.join(dir, 'assets');
  app.use('/assets', precompressed(assets), express.static(assets, { index: false, immutable: true, maxAge: '365d', fallthrough: true }));
  app.use(sendIndex(index));
  // No file under web/dist answers an API path: without this check every API request paid a stat() of one.
  const files = express.static(dir, { index: false, fallthrough: true, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  app.use((req: Request, res: Response, next: NextFunction) => (isApi(req.path) ? next() : files(req, res, next)));
  return true;
}
