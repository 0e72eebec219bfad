import { AppError } from '../errors/app-error';
import { QueryBooleanPipe } from './validation';

describe('QueryBooleanPipe', () => {
  const pipe = new QueryBooleanPipe();
  const read = (value: unknown) => pipe.transform(value, { type: 'query', data: 'admin' });

  it('reads "true"/"1" as true and "false"/"0"/"" as false; absent stays absent', () => {
    expect(['true', '1', 'false', '0', '', undefined].map(read)).toEqual([true, true, false, false, false, undefined]);
  });

  it('refuses anything else with the 400 of a query DTO, naming the parameter', () => {
    for (const value of ['maybe', 'TRUE', 'yes', ['true', 'true'], 'true ']) {
      expect(() => read(value)).toThrow(AppError);
      expect(() => read(value)).toThrow(expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }));
      expect(() => read(value)).toThrow(/^Invalid request: admin must be a boolean value$/);
    }
  });
});
