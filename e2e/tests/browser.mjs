// Debian's Chromium driven by playwright-core (no browser download), collecting page errors.
import { chromium } from 'playwright-core';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A new page whose console errors, page errors and dialogs are recorded in `problems`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });
  return { page, problems };
}

/** Number of canvas pixels that differ from the top-left (background) pixel. */
export async function drawnPixels(page, selector) {
  return page.$eval(selector, (canvas) => {
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) n += 1;
    }
    return n;
  });
}

/** Waits (up to `timeout` ms) until the canvas `selector` exists and has more than `min`
 * drawn pixels; returns their number. */
export async function waitDrawn(page, selector, min = 1000, timeout = 10000) {
  const start = Date.now();
  for (;;) {
    const n = await page.$(selector) ? await drawnPixels(page, selector) : 0;
    if (n > min || Date.now() - start > timeout) return n;
    await page.waitForTimeout(50);
  }
}
