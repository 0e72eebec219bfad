import { refusal } from '../errors/app-error';
import { messageOf } from '../errors/codes';

/**
 * How deeply arrays and objects nest in a JSON text, found in one pass over its characters
 * (no recursion, no parse), so that a hostile body is refused before `JSON.parse`, validation
 * or a recursive walk can overflow the stack. Brackets inside strings do not count.
 *
 * Returns true as soon as the nesting passes `max`.
 */
export function jsonDeeperThan(text: string | Buffer, max: number): boolean {
  const s = typeof text === 'string' ? text : text.toString('latin1');
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/** The message every JSON reader gives for a body past the depth limit. */
export const jsonTooDeep = (max: number) => messageOf('JSON_TOO_DEEP', max);

let depthLimit = 64;

/** Set once at start-up from `MAX_JSON_DEPTH` (configureApp); every JSON reader uses it. */
export function setJsonDepthLimit(max: number): void {
  depthLimit = max;
}

export function jsonDepthLimit(): number {
  return depthLimit;
}

/**
 * A JSON value sent inside a JSON string field (dashboard `Data`, library `Metadata`, a file's
 * `meta`): parsed, or a 400 that names the field when it is malformed or nests too deeply.
 */
export function parseJsonField(text: string, field: string): unknown {
  if (jsonDeeperThan(text, depthLimit)) throw refusal('JSON_TOO_DEEP', depthLimit, field);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refusal('INVALID_JSON_FIELD', field);
  }
}
