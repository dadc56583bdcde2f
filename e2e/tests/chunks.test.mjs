// The module split (src/chunks.rs, scripts/split.mjs): the leaderboard needs no chunk; a
// view's chunk is fetched once, when the view first opens, with a "loading" line meanwhile; a
// chunk that cannot be fetched gives a plain error in that view and the app stays usable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const CHUNK = /\/((?:split|chunk)_[a-z_0-9]+)-[0-9a-f]{16}\.wasm$/;
let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.stop(); });

/** Opens the sample (`bundle`: the v1 one by default), recording which chunks the page and
 * its loader worker fetch (name → count). */
async function openSample(route, bundle = 'bundles/article.json.gz') {
  const { page, problems } = await newPage(browser);
  const fetched = new Map();
  page.on('request', (r) => {
    const m = r.url().match(CHUNK);
    if (m) fetched.set(m[1], (fetched.get(m[1]) ?? 0) + 1);
  });
  if (route) await page.route(route.glob, route.handler);
  await page.goto(`${server.url}?bundle=${bundle}`);
  await page.waitForSelector('[data-testid="leaderboard-view"] tbody tr', { timeout: 30000 });
  return { page, problems, fetched };
}

// The chunks that are not views: the views' come from the registry, through the tab strip.
const OTHER_CHUNKS = ['split_cell_text', 'split_gold_sql', 'split_import', 'split_ov_link', 'split_queries', 'split_svg', 'split_v1', 'split_v2', 'split_v2_read',
  'split_warm_up'];

test('the build is split: each view the registry puts in a chunk, and the parser, are chunks of their own', async () => {
  const dist = process.env.RUNLENS_DIST || path.join(ROOT, 'dist');
  const names = readdirSync(dist).map((f) => f.match(/^(split_[a-z_0-9]+)-[0-9a-f]{16}\.wasm$/)?.[1]).filter(Boolean);
  const { page, problems } = await openSample();
  const views = await page.locator('[role="tablist"] [data-chunk]').evaluateAll((tabs) => tabs.map((t) => t.dataset.chunk));
  // Seven views are chunks (the leaderboard is in the first download): a registry that lost its
  // chunks would otherwise pass.
  assert.equal(views.length, 7);
  assert.deepEqual(names.sort(), [...views, ...OTHER_CHUNKS].sort());
  assert.deepEqual(problems, []);
});

test('the v1 parser is a chunk of its own: a v2 bundle never fetches it, a v1 bundle once', async () => {
  const v2 = await openSample(undefined, 'bundles/article.zip');
  // A trajectory's text is read back into its cell by a chunk of its own.
  // The whole bundle in first: the chooser's list does not change under the click.
  await v2.page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 30000 });
  await v2.page.getByRole('tab', { name: 'Trajectory' }).click();
  await v2.page.locator('.chooser-matches li[data-outcome="fail"] button').first().click();
  await v2.page.locator('[data-testid="trajectory-view"] li.vote').first().waitFor({ timeout: 30000 });
  assert.equal(v2.fetched.get('split_v2'), 1);
  assert.equal(v2.fetched.get('split_v2_read'), 1);
  assert.equal(v2.fetched.get('split_cell_text'), 1);
  assert.equal(v2.fetched.get('split_v1'), undefined);
  assert.deepEqual(v2.problems, []);
  const v1 = await openSample();
  assert.equal(v1.fetched.get('split_v1'), 1);
  assert.equal(v1.fetched.get('split_v2'), undefined);
  assert.equal(v1.fetched.get('split_v2_read'), undefined);
  assert.deepEqual(v1.problems, []);
});

test('the v1 parser\'s chunk cannot be fetched: the load fails with a plain error naming the bundle', async () => {
  const { page, problems } = await newPage(browser);
  await page.route('**/split_v1-*.wasm', (route) => route.abort('internetdisconnected'));
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  const panel = page.locator('[data-testid="error-panel"]');
  await page.waitForFunction(() => /could not be loaded/.test(document.querySelector('[data-testid="error-panel"]')?.innerText ?? ''),
    null, { timeout: 30000 });
  assert.match(await panel.innerText(), /bundles\/article\.json\.gz: this part of runlens could not be loaded .*reload the page/);
  assert.equal(await page.locator('[data-testid="leaderboard-view"]').count(), 0);
  assert.deepEqual(problems.filter((p) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|TypeError: Failed/.test(p)), []);
});

test('a view\'s chunk comes when the view first opens, with a loading line meanwhile', async () => {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, problems, fetched } = await openSample({
    glob: '**/split_ranking-*.wasm',
    handler: async (route) => { await held; await route.continue(); },
  });
  assert.equal(fetched.get('split_ranking'), undefined, 'the ranking chunk came before the view opened');
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  await page.waitForSelector('[data-testid="view-loading"]', { timeout: 10000 });
  release();
  await page.waitForSelector('[data-metric^="recall@"]', { timeout: 30000 });
  assert.equal(await page.locator('[data-testid="view-loading"]').count(), 0);
  // Back and forth: the chunk is fetched once.
  await page.getByRole('tab', { name: 'Leaderboard' }).click();
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  await page.waitForSelector('[data-metric^="recall@"]', { timeout: 30000 });
  assert.equal(fetched.get('split_ranking'), 1);
  assert.deepEqual(problems, []);
});

test('a chunk that cannot be fetched: a plain error in its view, the others still work', async () => {
  const { page, problems } = await openSample({
    glob: '**/split_gate-*.wasm',
    handler: (route) => route.abort('internetdisconnected'),
  });
  await page.getByRole('tab', { name: 'Gate' }).click();
  const error = page.locator('[data-testid="chunk-error"]');
  await error.waitFor({ timeout: 20000 });
  assert.match(await error.innerText(), /could not be loaded.*reload the page/);
  await page.getByRole('tab', { name: 'Leaderboard' }).click();
  await page.waitForSelector('[data-testid="leaderboard-view"] tbody tr', { timeout: 10000 });
  await page.getByRole('tab', { name: 'Failures' }).click();
  await page.waitForSelector('[data-testid="failures-view"]', { timeout: 30000 });
  // The fetch failure is logged by the chunk loader; nothing panicked and no script error.
  assert.deepEqual(problems.filter((p) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|TypeError: Failed/.test(p)), []);
});
