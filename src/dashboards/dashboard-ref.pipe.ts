import { Injectable, PipeTransform } from '@nestjs/common';
import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';

/** Dashboard IDs are random integers 1..2^53-1 (safe in JavaScript). */
export const MAX_DASHBOARD_ID = Number.MAX_SAFE_INTEGER;

/** A dashboard path key: the numeric ID or, where the contract allows it, a GUID. */
export type DashboardRef = { id: number } | { guid: string };

export function parseDashboardRef(value: string, allowGuid: boolean): DashboardRef {
  if (/^\d{1,16}$/.test(value ?? '')) {
    const id = Number(value);
    if (id >= 1 && id <= MAX_DASHBOARD_ID) return { id };
  }
  if (allowGuid && isUuid(value)) return { guid: value.toLowerCase() };
  throw refusal('INVALID_DASHBOARD_ID', String(value).slice(0, 40), allowGuid);
}

/** `{id}` that may be a numeric ID or a GUID (GET and PUT). */
@Injectable()
export class DashboardRefPipe implements PipeTransform<string, DashboardRef> {
  transform(value: string): DashboardRef {
    return parseDashboardRef(value, true);
  }
}

/** `{id}` that must be the numeric ID (DELETE). */
@Injectable()
export class DashboardIdPipe implements PipeTransform<string, DashboardRef> {
  transform(value: string): DashboardRef {
    return parseDashboardRef(value, false);
  }
}
