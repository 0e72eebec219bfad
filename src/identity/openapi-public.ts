import { OpenAPIObject } from '@nestjs/swagger';

/**
 * Public operations (`@Public()`, `x-access: public`) declare `security: []`: a reader and a
 * client generator then know they need no credentials on purpose, rather than by omission.
 */
export function declarePublicOperations(doc: OpenAPIObject): OpenAPIObject {
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops) as Array<Record<string, unknown>>) {
      if (op && typeof op === 'object' && op['x-access'] === 'public') op.security = [];
    }
  }
  return doc;
}
