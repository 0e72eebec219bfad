import { describe, expect, it } from '@jest/globals';
import { files } from './test-fixtures';
import { cloneName, resourceMatches } from './resources-api';
import { fileMatches, nameFromFile } from '../files/files-api';

describe('resources and files helpers', () => {
  it('names a clone "x (copy)", then "x (copy 2)" … among the names in use', () => {
    expect(cloneName('hosts', ['hosts'])).toBe('hosts (copy)');
    expect(cloneName('hosts', ['hosts', 'hosts (copy)'])).toBe('hosts (copy 2)');
    expect(cloneName('hosts (copy)', ['hosts', 'hosts (copy)'])).toBe('hosts (copy 2)');
  });

  it('filters resources by name, description or GUID, ignoring case', () => {
    const r = files.resource;
    expect(resourceMatches(r, 'HOST')).toBe(true);
    expect(resourceMatches(r, 'lookup')).toBe(true);
    expect(resourceMatches(r, r.GUID.slice(0, 8))).toBe(true);
    expect(resourceMatches(r, 'nothing')).toBe(false);
    expect(resourceMatches(r, '  ')).toBe(true);
  });

  it('filters files by name, description, labels and type', () => {
    const f = files.file;
    expect(fileMatches(f, 'logo')).toBe(true);
    expect(fileMatches(f, 'branding')).toBe(true);
    expect(fileMatches(f, 'image/png')).toBe(true);
    expect(fileMatches(f, 'csv')).toBe(false);
  });

  it('makes a display name of a picked file name without separators or control characters', () => {
    expect(nameFromFile('a/b\\c\u0001.png')).toBe('a_b_c_.png');
  });
});
