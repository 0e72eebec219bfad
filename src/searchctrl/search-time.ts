import { refusal } from '../common/errors/app-error';

/** An RFC3339(Nano) query or body timestamp; empty/absent -> undefined; anything else is a 400 naming the field. */
export function parseTime(value: string | undefined, field: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i.test(value)) throw refusal('INVALID_TIMESTAMP', field);
  const d = new Date(value.replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(d.getTime())) throw refusal('INVALID_TIMESTAMP', field);
  return d;
}
