/**
 * `entropy [EV] [by A ...] [over <duration>]`: the Shannon entropy of the bytes of the entry data
 * (or of an EV) over each group, divided by 8 so that it lies between 0 and 1. A math module
 * (stats-engine.ts): it merges across indexers, honours -maxtracked and runs over time for a chart.
 */
import { mathModule } from './stats';

export const entropyModule = mathModule(
  'entropy',
  'Entropy of the bytes of the entry data (or of an enumerated value) over the search, between 0 (one byte value) and 1 (every byte value as often), into "entropy"; ' +
    'optionally by EVs and over time windows, charted over time. Every byte of every value counts, so long values weigh more than short ones',
  ['entropy', 'entropy foo by bar baz', 'entropy over 10m', 'entropy Payload by Port | chart entropy by Port'],
);
