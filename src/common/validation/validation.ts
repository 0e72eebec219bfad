import { applyDecorators, ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { refusal } from '../errors/app-error';

function describe(errors: ValidationError[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const name = prefix + e.property;
    for (const msg of Object.values(e.constraints ?? {})) out.push(msg.startsWith(e.property) ? prefix + msg : `${name}: ${msg}`);
    if (e.children?.length) out.push(...describe(e.children, `${name}.`));
  }
  return out;
}

/**
 * Global pipes run before a parameter's own pipe, and Nest's ValidationPipe would turn a path
 * or query value declared `number` into `Number(value)` first: `0x1`, `1e0`, `+1` and ` 1` all
 * became UID 1 before `IdPipe` saw them. Single path and query values reach their own pipe as
 * the client sent them; DTO classes are still transformed and validated.
 */
class StrictPrimitivesValidationPipe extends ValidationPipe {
  protected override transformPrimitive(value: unknown, _metadata: ArgumentMetadata): unknown {
    return value;
  }
}

/** Unknown and read-only fields are dropped (clients send whole structures back); wrong types are a 400 naming the field. */
export function buildValidationPipe(): ValidationPipe {
  return new StrictPrimitivesValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const parts = describe(errors);
      return refusal('VALIDATION_FAILED', parts.length ? parts.join('; ') : undefined);
    },
  });
}

/** Query-string booleans: only "true"/"1" are true (never implicit conversion of "false"); anything else is returned as sent. */
const queryBoolean = (value: unknown): unknown =>
  value === true || value === 'true' || value === '1' ? true : value === false || value === 'false' || value === '0' || value === '' ? false : value;

export const ToBoolean = () => Transform(({ value }) => queryBoolean(value));

/**
 * One optional boolean query parameter without a DTO (`@Query('admin', QueryBooleanPipe)`), read
 * as `@IsOptional() @ToBoolean() @IsBoolean()` reads it, with the same 400. For hot routes: the
 * ValidationPipe's class-transformer and class-validator passes over a query DTO cost more than
 * the rest of a small list request.
 */
@Injectable()
export class QueryBooleanPipe implements PipeTransform<unknown, boolean | undefined> {
  transform(value: unknown, { data }: ArgumentMetadata): boolean | undefined {
    if (value === undefined) return undefined;
    const b = queryBoolean(value);
    if (typeof b !== 'boolean') throw refusal('VALIDATION_FAILED', `${data} must be a boolean value`);
    return b;
  }
}

/**
 * Clients send `null` for a field they leave empty (the product's client does for every empty
 * description). Free text: `null` is the empty string. Names and other values that cannot be
 * empty: `null` is the same as leaving the field out. IDs where the product writes 0 for
 * "not set" (a notification's UID or GID): 0 and `null` are left out too.
 */
export const NullToEmpty = () => Transform(({ value }) => (value === null ? '' : value));
export const NullToAbsent = () => Transform(({ value }) => (value === null ? undefined : value));
export const ZeroToAbsent = () => Transform(({ value }) => (value === null || value === 0 ? undefined : value));

/**
 * The name of an account or a group: a string of 1 to 128 characters matching `pattern`, else
 * `message`. The checks run in the order of the decorators it stands for
 * (`@IsString() @MinLength(1) @MaxLength(128) @Matches(...)`), so the problems read the same.
 */
export const IsAccountName = (pattern: RegExp, message: string) => applyDecorators(Matches(pattern, { message }), MaxLength(128), MinLength(1), IsString());
