import { describe, expect, it } from '@jest/globals';
import { SearchDetails } from '../api/types';
import { allowedActions, isRunning, noteOf, PersistentSearch, stateWords } from './searches-api';

const search = (State: string, over: Partial<PersistentSearch> = {}, details: Partial<SearchDetails> | null = {}): PersistentSearch => ({
  ID: '42',
  UID: 7,
  GID: 0,
  State,
  AttachedClients: 0,
  StoredData: 10,
  UserQuery: 'tag=web',
  EffectiveQuery: 'tag=web | text',
  StartRange: '',
  EndRange: '',
  details: details === null ? undefined : ({ Finished: '2024-01-01T00:00:00Z', Started: '2024-01-01T00:00:00Z', ...details } as SearchDetails),
  ...over,
});
const RUNNING = { Finished: '0001-01-01T00:00:00Z' };

describe('persistent search states', () => {
  it('knows a running search by its zero Finished time, and a failed one is not running', () => {
    expect(isRunning(search('ACTIVE', {}, RUNNING))).toBe(true);
    expect(isRunning(search('ACTIVE'))).toBe(false);
    expect(isRunning(search('ACTIVE', { Error: 'timeout' }, RUNNING))).toBe(false);
    expect(isRunning(search('ACTIVE', {}, null))).toBe(false);
  });

  it('says what a state means in words', () => {
    expect(stateWords(search('ACTIVE/BACKGROUNDED', {}, RUNNING))).toBe('running, kept in the background, not open anywhere');
    expect(stateWords(search('ACTIVE/SAVING', { AttachedClients: 2 }, RUNNING))).toBe('running, saved once it finishes, open in 2 pages');
    expect(stateWords(search('DORMANT/SAVED'))).toBe('finished, results saved, not open anywhere');
    expect(stateWords(search('DORMANT'))).toBe('finished, kept until deleted or the service restarts, not open anywhere');
    expect(stateWords(search('SAVED/ATTACHED', { AttachedClients: 1 }))).toBe('finished, results saved, open in 1 page');
    expect(stateWords(search('DORMANT', { Error: 'search failed: timeout' }))).toBe(
      'failed: search failed: timeout, kept until deleted or the service restarts, not open anywhere',
    );
  });

  it('offers only the actions the contract allows in each state, and to whom', () => {
    expect(allowedActions(search('ACTIVE', {}, RUNNING), true)).toEqual({ background: true, save: true, stop: true, delete: true });
    expect(allowedActions(search('ACTIVE/BACKGROUNDED', {}, RUNNING), true)).toEqual({ background: false, save: true, stop: true, delete: true });
    expect(allowedActions(search('ACTIVE/SAVING'), true)).toEqual({ background: true, save: false, stop: false, delete: true });
    expect(allowedActions(search('DORMANT/SAVED'), true)).toEqual({ background: false, save: false, stop: false, delete: true });
    expect(allowedActions(search('DORMANT'), true)).toEqual({ background: false, save: true, stop: false, delete: true });
    // A group member who is not the owner may only background it.
    expect(allowedActions(search('ACTIVE', {}, RUNNING), false)).toEqual({ background: true, save: false, stop: false, delete: false });
  });

  it('reads the name and notes of a saved search, keeping only strings', () => {
    expect(noteOf(search('DORMANT/SAVED', {}, { SaveMetadata: { name: 'Report', notes: 'for Monday' } }))).toEqual({ name: 'Report', notes: 'for Monday' });
    expect(noteOf(search('DORMANT/SAVED', {}, { Name: 'Launched name', SaveMetadata: { notes: 5 } }))).toEqual({ name: 'Launched name', notes: undefined });
    expect(noteOf(search('DORMANT/SAVED', {}, { SaveMetadata: ['x'] }))).toEqual({ name: undefined, notes: undefined });
  });
});
