import { Injectable, PipeTransform } from '@nestjs/common';
import { refusal } from '../errors/app-error';

const INT32_MAX = 2 ** 31 - 1;

/** A positive int32 path ID (UID, GID): anything else is a 400, never a database error. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,10}$/.test(value ?? '')) throw refusal('INVALID_ID', String(value).slice(0, 40));
    const n = Number(value);
    if (n < 1 || n > INT32_MAX) throw refusal('INVALID_ID', value);
    return n;
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** A UUID path parameter, lower-cased; anything else is a 400. */
@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw refusal('INVALID_UUID', String(value).slice(0, 40));
    return value.toLowerCase();
  }
}
