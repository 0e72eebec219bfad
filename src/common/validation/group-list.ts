import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Most groups one object may be shared with. */
export const MAX_GROUPS = 256;
const INT32_MAX = 2 ** 31 - 1;

/**
 * The one rule for a list of group IDs (every shared object's groups): optional; `null` means
 * none (kept as `null`: the feature stores it as NULL or as an empty list); duplicates are
 * dropped; at most `MAX_GROUPS`, each a positive int32.
 */
export const IsGroupList = () =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }) => (Array.isArray(value) && value.every((v) => typeof v === 'number') ? [...new Set(value)] : value)),
    IsArray(),
    ArrayMaxSize(MAX_GROUPS),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(INT32_MAX, { each: true }),
  );

/** `null` means an empty string (descriptions are always strings). */
