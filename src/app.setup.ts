import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { declarePublicOperations } from './identity/openapi-public';
import express, { Request } from 'express';
import helmet from 'helmet';
import { Server } from 'node:http';
import { Duplex } from 'node:stream';
import { AppConfig } from './config/app-config';
import { ErrorFilter } from './common/http/error-filter';
import { AppLogger } from './common/logging/app-logger';
import { AuthenticatedConnectionInterceptor } from './common/http/authenticated-connection.interceptor';
import { ConnectionLimits } from './common/http/connection-limits';
import { refusal } from './common/errors/app-error';
import { answerRawError } from './common/http/raw-answer';
import { QuietStartupLogger } from './common/http/startup-log';
import { RefusalBrake } from './common/http/refusal-brake';
import { enableLinearRegexpFallback } from './query/regexp-safety';
import { buildValidationPipe } from './common/validation/validation';
import { jsonDeeperThan, jsonTooDeep, setJsonDepthLimit } from './common/validation/json-depth';

/** Paths that read their own bodies (ingest batches, HEC bodies of concatenated JSON objects). */
export const SELF_PARSED_PATHS = ['/services/collector', '/api/ingest/'];

const selfParsed = (req: Request) => SELF_PARSED_PATHS.some((p) => req.url.startsWith(p));

/** Everything main.ts and the e2e tests share: logging, security headers, bodies, validation, errors, API docs. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  enableLinearRegexpFallback();
  const exp = app as NestExpressApplication;
  // Before anything reads a request: timeouts, and connections refused before they are parsed.
  ConnectionLimits.install(app.getHttpServer() as Server, {
    maxConnections: config.maxConnections,
    maxUnauthenticatedPerAddress: config.maxUnauthenticatedConnectionsPerAddress,
    headersTimeoutMs: config.httpHeadersTimeoutMs,
    requestTimeoutMs: config.httpRequestTimeoutMs,
  });
  // First: a braked client's requests cost no parsing, authentication or logging.
  app.use(new RefusalBrake({ max: config.refusalBrakeMax, delayMs: config.refusalBrakeDelayMs }).middleware);
  app.useLogger(new QuietStartupLogger(app.get(AppLogger)));
  exp.disable('x-powered-by');
  exp.set('query parser', 'simple');
  // No SHA-1 of every JSON body: API answers are not cached by ETag. Routes with a version of
  // their own (GET /api/dashboards/{id}) still send it, and If-None-Match against it still gets a 304.
  exp.set('etag', false);
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'] } },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.enableCors({
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: true,
    allowedHeaders: ['Authorization', 'Content-Type', 'Service-Token', 'X-Request-Id'],
    exposedHeaders: ['X-Total-Count', 'X-Request-Id'],
  });
  const limit = config.maxJsonBody;
  setJsonDepthLimit(config.maxJsonDepth);
  const json = express.json({
    limit,
    strict: false,
    type: (req) => !selfParsed(req as Request) && /json/i.test(String(req.headers['content-type'] ?? '')),
    // Before JSON.parse, validation or PostgreSQL's jsonb recurse into it: a deep body is a 400.
    verify: (_req, _res, buf) => {
      if (jsonDeeperThan(buf, config.maxJsonDepth)) throw Object.assign(new Error(jsonTooDeep(config.maxJsonDepth)), { status: 400 });
    },
  });
  const form = express.urlencoded({
    limit,
    extended: false,
    parameterLimit: 1000,
    type: (req) => !selfParsed(req as Request) && /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')),
  });
  app.use(json, form);
  answerClientErrorsWithJson(app);
  app.useGlobalPipes(buildValidationPipe());
  app.useGlobalInterceptors(new AuthenticatedConnectionInterceptor());
  app.useGlobalFilters(new ErrorFilter());
  setupOpenApi(app);
}

/**
 * Requests Node's HTTP parser refuses (oversized headers or request line, malformed framing) or
 * that were not in within HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS never reach Express;
 * answer them with the same `{"Error"}` body instead of an empty one, and close the connection.
 */
function answerClientErrorsWithJson(app: INestApplication): void {
  const server = app.getHttpServer() as Server;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already begun (a request timed out while its answer streams) cannot take another.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (!socket.writable || answering || (err.code === 'ECONNRESET' && !socket.readable)) return socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return answerRawError(socket, refusal('REQUEST_NOT_RECEIVED_IN_TIME'), false);
    if (err.code === 'HPE_HEADER_OVERFLOW') return answerRawError(socket, refusal('HEADERS_TOO_LARGE'));
    answerRawError(socket, refusal('MALFORMED_HTTP_REQUEST'));
  });
}

function setupOpenApi(app: INestApplication): void {
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Search and analytics service')
      .setDescription('HTTP API of the search service. Authenticate with `Authorization: Bearer <JWT>` from POST /api/login, or an API token in `Service-Token`.')
      .setVersion('1.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'jwt')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Service-Token' }, 'token')
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'Authorization', description: 'HEC routes: `Splunk <API token>` (holding Ingest), or the token in the `token` query parameter' },
        'splunk',
      )
      .build(),
  );
  SwaggerModule.setup('api/docs', app, declarePublicOperations(doc), { jsonDocumentUrl: 'api/openapi.json', useGlobalPrefix: false });
}
