/** What the phone tests check and do with a finger: the page fits, an element is within reach, a swipe. */
import { CDPSession, Locator, Page } from 'playwright-core';

/** The page is no wider than the window: nothing to scroll sideways, nothing cut off at the right. */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect([where, scrollWidth]).toEqual([where, expect.any(Number)]);
  expect({ where, fits: scrollWidth <= innerWidth, scrollWidth, innerWidth }).toEqual({ where, fits: true, scrollWidth, innerWidth });
}

/** Whether the element lies inside the window (horizontally), where a thumb can reach it. */
export async function onScreen(target: Locator, page: Page): Promise<boolean> {
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  return !!box && box.x >= 0 && box.x + box.width <= width;
}

/** A finger swiping across `target` from right to left by `dx` pixels (touch events, scrolled by the browser itself). */
export async function swipeLeft(cdp: CDPSession, target: Locator, dx: number): Promise<void> {
  const box = (await target.boundingBox())!;
  const x = Math.min(box.x + box.width, target.page().viewportSize()!.width) - 20;
  const y = box.y + Math.min(box.height / 2, 60);
  const at = (px: number) => [{ x: px, y }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x) });
  for (let i = 1; i <= 10; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x - (dx * i) / 10) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
