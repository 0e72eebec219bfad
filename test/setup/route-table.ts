import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { AUTH_DECLARATION } from '../../src/identity/auth.decorators';
import { AuthDeclaration } from '../../src/identity/auth.types';

// Keys Nest's @Controller/@Get... decorators write (PATH_METADATA, METHOD_METADATA in @nestjs/common/constants).
const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';
const CONTROLLER_METADATA = '__controller__';

export interface RouteInfo {
  method: string;
  path: string;
  controller: string;
  handler: string;
  /** As the global guard reads it: the handler's declaration, else the controller's. */
  declaration: AuthDeclaration | undefined;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [v === undefined ? '' : String(v)]);

function joinPath(...parts: string[]): string {
  const joined =
    '/' +
    parts
      .map((p) => p.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/');
  return joined.replace(/\/{2,}/g, '/');
}

/** Every HTTP route of the controllers of a Nest module container (one entry per method/path pair). */
export function routesOfControllers(controllers: Iterable<Type<unknown>>): RouteInfo[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const out: RouteInfo[] = [];
  for (const ctrl of controllers) {
    const prefixes = asList(Reflect.getMetadata(PATH_METADATA, ctrl));
    for (const name of scanner.getAllMethodNames(ctrl.prototype)) {
      const handler = (ctrl.prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (methodPaths === undefined) continue; // not a route handler
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'GET';
      const declaration = reflector.getAllAndOverride<AuthDeclaration | undefined>(AUTH_DECLARATION, [handler, ctrl]);
      for (const prefix of prefixes) for (const p of asList(methodPaths)) out.push({ method, path: joinPath(prefix, p), controller: ctrl.name, handler: name, declaration });
    }
  }
  const key = (r: RouteInfo) => `${r.path} ${r.method}`;
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Every controller route of the running app. */
export function routeTable(app: INestApplication): RouteInfo[] {
  const controllers = new Set<Type<unknown>>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as Type<unknown> | null;
      if (ctrl && Reflect.getMetadata(CONTROLLER_METADATA, ctrl)) controllers.add(ctrl);
    }
  }
  return routesOfControllers(controllers);
}

/** `public | admin | capability:<Name> | anyToken | auth`, or `UNDECLARED`; ` credential:<kind>` when not a JWT or Service-Token. */
export function describeDeclaration(d: AuthDeclaration | undefined): string {
  if (!d) return 'UNDECLARED';
  if (d.public) return 'public';
  if (d.admin) return 'admin';
  if (d.capability) return `capability:${d.capability}${d.credential ? ` credential:${d.credential}` : ''}`;
  if (d.anyToken) return 'anyToken';
  return 'auth';
}
