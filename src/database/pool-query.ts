import { DataSource } from 'typeorm';

/**
 * The rows of one statement, run on the data source's own pool (pg's `Pool.query`), for the
 * reads every request makes (the guard's session or token lookup, list pages). `DataSource.query`
 * gives each statement a query runner, a logger call and subscriber broadcasts, about ten
 * promises more, none of which a plain read needs. Errors are pg's own, which the error filter maps as it maps TypeORM's. No client is
 * held here: `Pool.query` keeps an 'error' listener on the one it checks out until it is released
 * (pg-pool), so PostgreSQL going away mid-query fails this call instead of crashing the process.
 */
export async function poolRows<T = Record<string, unknown>>(ds: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (ds.driver as unknown as { master: { query(sql: string, params: unknown[]): Promise<{ rows: T[] }> } }).master;
  return (await pool.query(sql, params)).rows;
}
