import { etagOf, parseIfMatch, preconditionFailed } from './dashboards.service';

describe('dashboard ETags and If-Match', () => {
  it('quotes the version', () => {
    expect(etagOf('1732612345123456')).toBe('"1732612345123456"');
  });

  it('reads the versions If-Match names; * or nothing is no condition', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBeUndefined();
    expect(parseIfMatch('"1", *')).toBeUndefined();
    expect(parseIfMatch('   ')).toBeUndefined();
    expect(parseIfMatch('"12"')).toEqual(['12']);
    expect(parseIfMatch('W/"12"')).toEqual(['W/"12"']); // weak: never matches (strong comparison)
    expect(parseIfMatch('12')).toEqual(['12']);
    expect(parseIfMatch('"1", W/"2" ,3')).toEqual(['1', 'W/"2"', '3']);
    expect(parseIfMatch('garbage')).toEqual(['garbage']); // matches no version: 412
  });

  it('a stale version is 412 with words', () => {
    const e = preconditionFailed();
    expect(e.status).toBe(412);
    expect(e.message).toMatch(/changed since you loaded it/);
  });
});
