/**
 * The one partial update of the owned-object tables (macros, templates, playbooks, library entries,
 * autoextractors, scheduled searches): a field the patch leaves out keeps its value, a field it
 * has is written (undefined as NULL), and `updated_at` moves.
 */

/** Where a patch field goes: its column, or its column and the JSON type its value is sent as. */
export type PatchColumn = string | { column: string; json: 'json' | 'jsonb' };
export type PatchColumns<P> = { readonly [K in keyof Required<P>]: PatchColumn };

/** Anything that runs SQL with positional parameters (a DataSource, an EntityManager). */
export interface Sql {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

const jsonText = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/** UPDATE `table` SET updated_at = now() and the patch's columns WHERE `keyColumn` = `key`. */
export async function updateColumns<P extends object>(db: Sql, table: string, keyColumn: string, key: unknown, columns: PatchColumns<P>, patch: Partial<P>): Promise<void> {
  const sets = ['updated_at = now()'];
  const params: unknown[] = [key];
  for (const [field, to] of Object.entries(columns) as Array<[keyof P & string, PatchColumn]>) {
    if (!(field in patch)) continue;
    const value = patch[field];
    if (typeof to === 'string') {
      params.push(value ?? null);
      sets.push(`${to} = $${params.length}`);
    } else {
      params.push(jsonText(value));
      sets.push(`${to.column} = $${params.length}::${to.json}`);
    }
  }
  await db.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE ${keyColumn} = $1`, params);
}

/** Whether a query failed on a unique index (PostgreSQL's unique_violation, 23505). */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === '23505';
