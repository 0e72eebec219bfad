import { AppConfig } from '../config/app-config';
import { WsRefusalBrake } from './ws-refusal-brake';

describe('WsRefusalBrake', () => {
  const brake = () => new WsRefusalBrake({ refusalBrakeMax: 2, refusalBrakeDelayMs: 1000 } as AppConfig);

  it('lets REFUSAL_BRAKE_MAX refusals of a user pass, then spaces the next ones a delay apart, however many sockets send them', () => {
    const b = brake();
    expect([b.refused(1, 0), b.refused(1, 0)]).toEqual([0, 0]);
    // Three sockets refused at once: read again 1, 2 and 3 s later.
    expect([b.refused(1, 0), b.refused(1, 0), b.refused(1, 0)]).toEqual([1000, 2000, 3000]);
    // Later, after the held ones: one delay from then.
    expect(b.refused(1, 5000)).toBe(1000);
  });

  it('counts each user apart, and starts over with a new window', () => {
    const b = brake();
    for (let i = 0; i < 3; i++) b.refused(1, 0);
    expect(b.refused(2, 0)).toBe(0);
    expect(b.refused(1, 10_000)).toBe(0);
  });
});
