/** Array helpers safe for any length. */

/**
 * Appends `items` to `into` in place. Unlike `into.push(...items)`, which passes every item as a
 * call argument and overflows the stack beyond about 100,000 items, it works for any length.
 */
export function pushAll<T>(into: T[], items: readonly T[]): void {
  for (const item of items) into.push(item);
}
