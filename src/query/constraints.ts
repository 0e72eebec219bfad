/** Query constraints before the first module: `tag=`, `start=`, `end=`. */
import { Token } from './lexer';
import { checkTimeExpr } from './time';

export interface TimeSpec {
  text: string;
  quoted: boolean;
}

export interface Constraints {
  tags: string[];
  tagSpecified: boolean;
  start?: TimeSpec;
  end?: TimeSpec;
}

const BAD_TAG_CHARS = /[!@#$%^&()=+<>.:;"'{}[\]|\\\s]/;

/** Validates a comma-separated tag list; returns the tags or an error message. */
export function parseTagList(text: string): string[] | string {
  const tags = text.split(',');
  for (const t of tags) {
    if (t === '') return `invalid tag list "${text}": empty tag name`;
    if (BAD_TAG_CHARS.test(t)) return `invalid tag name "${t}"`;
  }
  return tags;
}

/**
 * Consumes leading `key=value` constraints from the first segment's tokens.
 * Returns the constraints and the number of tokens consumed; throws a message string on error.
 */
export function parseConstraints(tokens: Token[]): { constraints: Constraints; consumed: number } {
  const c: Constraints = { tags: ['default'], tagSpecified: false };
  let i = 0;
  while (i + 1 < tokens.length && tokens[i].kind === 'word' && tokens[i + 1].kind === 'op' && tokens[i + 1].value === '=') {
    const key = tokens[i].value;
    if (key !== 'tag' && key !== 'start' && key !== 'end') break;
    const val = tokens[i + 2];
    if (!val || (val.kind !== 'word' && val.kind !== 'string')) throw new ConstraintError(`missing value for ${key}=`);
    if (key === 'tag') {
      if (c.tagSpecified) throw new ConstraintError('tag= given more than once');
      const tags = parseTagList(val.value);
      if (typeof tags === 'string') throw new ConstraintError(tags);
      c.tags = tags;
      c.tagSpecified = true;
    } else {
      if (c[key]) throw new ConstraintError(`${key}= given more than once`);
      const err = checkTimeExpr(val.value, val.quoted);
      if (err) throw new ConstraintError(`${key}=: ${err}`);
      c[key] = { text: val.value, quoted: val.quoted };
    }
    i += 3;
  }
  return { constraints: c, consumed: i };
}

export class ConstraintError extends Error {}
