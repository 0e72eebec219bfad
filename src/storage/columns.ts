import { ValueTransformer } from 'typeorm';

/** `bigint` columns as JavaScript numbers (sizes stay far below 2^53). */
export const bigintNumber: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null ? 0 : Number(v)),
};
