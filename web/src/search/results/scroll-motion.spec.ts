import { ScrollMotion } from './scroll-motion';

describe('ScrollMotion', () => {
  let t = 0;
  let settled = 0;
  let motion: ScrollMotion;
  beforeEach(() => {
    jest.useFakeTimers();
    t = 1000;
    settled = 0;
    motion = new ScrollMotion(
      () => settled++,
      1,
      120,
      () => t,
    );
  });
  afterEach(() => {
    motion.dispose();
    jest.useRealTimers();
  });

  it('calls wheel steps of 3 rows a frame reading, and a single jump after a pause too', () => {
    expect(motion.update(0)).toBe(false);
    for (let i = 1; i <= 30; i++) {
      t += 16;
      expect(motion.update(i * 3)).toBe(false);
    }
    t += 5000;
    expect(motion.update(50_000)).toBe(false);
    jest.runAllTimers();
    expect(settled).toBe(0);
  });

  it('calls 550 rows a frame flying until it has stopped for 120 ms, then asks for one render', () => {
    motion.update(0);
    for (let i = 1; i <= 10; i++) {
      t += 16;
      expect(motion.update(i * 550)).toBe(true);
    }
    t += 16;
    expect(motion.update(5500)).toBe(true); // stopped, not yet settled
    jest.advanceTimersByTime(100);
    expect(settled).toBe(0);
    t += 120;
    jest.advanceTimersByTime(30);
    expect(settled).toBe(1);
    expect(motion.update(5500)).toBe(false);
    jest.runAllTimers();
    expect(settled).toBe(1);
  });
});
