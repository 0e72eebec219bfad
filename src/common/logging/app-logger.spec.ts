import { Logger } from '@nestjs/common';
import { IncomingMessage } from 'node:http';
import { AppLogger } from './app-logger';

/** The lines an AppLogger writes, parsed. */
function capture(level = 'info'): { logger: AppLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = new AppLogger(level, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { logger, lines };
}

describe('AppLogger (Nest logger over pino)', () => {
  it("writes Nest's calls as pino lines with their context, level and message", () => {
    const { logger, lines } = capture();
    logger.log('started', 'Main');
    logger.warn('careful');
    logger.debug('hidden at info', 'Main');
    logger.verbose('hidden too');
    logger.error('failed', 'Error: failed\n    at x (y.js:1:1)', 'ErrorFilter');
    logger.log({ event: 'stored', count: 3 }, 'Ingest');
    expect(lines.map(({ level, msg, context, event, count }) => ({ level, msg, context, event, count }))).toEqual([
      { level: 30, msg: 'started', context: 'Main', event: undefined, count: undefined },
      { level: 40, msg: 'careful', context: undefined, event: undefined, count: undefined },
      { level: 50, msg: 'failed', context: 'ErrorFilter', event: undefined, count: undefined },
      { level: 30, msg: undefined, context: 'Ingest', event: 'stored', count: 3 },
    ]);
    expect(lines[2].err).toEqual(expect.objectContaining({ message: 'failed', stack: 'Error: failed\n    at x (y.js:1:1)' }));
  });

  it('serialises an Error as err, with its stack', () => {
    const { logger, lines } = capture();
    logger.error(new Error('boom'), 'Svc');
    expect(lines[0]).toEqual(
      expect.objectContaining({ level: 50, msg: 'boom', context: 'Svc', err: expect.objectContaining({ type: 'Error', message: 'boom', stack: expect.stringContaining('boom') }) }),
    );
  });

  it('binds every line written while a request is served to that request, without its query string', async () => {
    const { logger, lines } = capture();
    const req = { id: 'r-1', method: 'GET', url: '/services/collector?token=secret', headers: {} } as unknown as IncomingMessage;
    const nest = new Logger('Svc');
    Logger.overrideLogger(logger);
    try {
      await logger.withRequest(req, async () => {
        await Promise.resolve();
        nest.warn('inside');
      });
      nest.warn('outside');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(lines.map((l) => [l.msg, l.req])).toEqual([
      ['inside', { id: 'r-1', method: 'GET', url: '/services/collector' }],
      ['outside', undefined],
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
