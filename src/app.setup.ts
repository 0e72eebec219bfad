import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { Request } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { ErrorFilter } from './common/http/error-filter';
import { buildValidationPipe } from './common/validation/validation';

/** Paths that read their own bodies (ingest batches, HEC bodies of concatenated JSON objects). */
export const SELF_PARSED_PATHS = ['/services/collector', '/api/ingest/'];

const selfParsed = (req: Request) => SELF_PARSED_PATHS.some((p) => req.url.startsWith(p));

/** Everything main.ts and the e2e tests share: logging, security headers, bodies, validation, errors, API docs. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const exp = app as NestExpressApplication;
  app.useLogger(app.get(Logger));
  exp.disable('x-powered-by');
  exp.set('query parser', 'simple');
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
  const json = express.json({ limit, strict: false, type: (req) => !selfParsed(req as Request) && /json/i.test(String(req.headers['content-type'] ?? '')) });
  const form = express.urlencoded({ limit, extended: false, parameterLimit: 1000, type: (req) => !selfParsed(req as Request) && /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')) });
  app.use(json, form);
  app.useGlobalPipes(buildValidationPipe());
  app.useGlobalFilters(new ErrorFilter());
  setupOpenApi(app);
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
      .build(),
  );
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/openapi.json', useGlobalPrefix: false });
}
