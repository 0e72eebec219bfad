import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Most groups one object may be shared with. */
export const MAX_GROUPS = 256;
const INT32_MAX = 2 ** 31 - 1;

/** An optional list of group IDs: `null` means none; duplicates are dropped; bounded. */
export const IsGroupList = () =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }) => (value === null ? [] : Array.isArray(value) && value.every((v) => typeof v === 'number') ? [...new Set(value)] : value)),
    IsArray(),
    ArrayMaxSize(MAX_GROUPS),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(INT32_MAX, { each: true }),
  );

/** `null` means an empty string (descriptions are always strings). */
