import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';

function describe(errors: ValidationError[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const name = prefix + e.property;
    for (const msg of Object.values(e.constraints ?? {})) out.push(msg.startsWith(e.property) ? prefix + msg : `${name}: ${msg}`);
    if (e.children?.length) out.push(...describe(e.children, `${name}.`));
  }
  return out;
}

/** Unknown and read-only fields are dropped (clients send whole structures back); wrong types are a 400 naming the field. */
export function buildValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const parts = describe(errors);
      return new BadRequestException(parts.length ? `Invalid request: ${parts.join('; ')}` : 'Invalid request body');
    },
  });
}

/** Query-string booleans: only "true"/"1" are true (never implicit conversion of "false"). */
export const ToBoolean = () =>
  Transform(({ value }) => (value === true || value === 'true' || value === '1' ? true : value === false || value === 'false' || value === '0' || value === '' ? false : value));
