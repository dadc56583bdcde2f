// Re-labelling against `runlens serve` (local backend): open a failure's trajectory tab,
// ask the offline model, apply, see the counts change, export the overrides, reload with
// them (link and file import); with no proxy the panel says how to start one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, OUT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const DEV = 'text2sqlbench-synthetic-dev';
// gpt-4.1 on this question is labelled clickhouse_error in the sample.
const TRACE = 'e0a350e98f047e596b61450060b0f0cd';
const OPEN = `?bundle=bundles/article.json.gz&tab=trajectory&corpus=${DEV}&tmodel=gpt-4.1&trace=${TRACE}`;
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(OUT, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

const value = async (page, selector) => Number(await page.locator(selector).first().getAttribute('data-value'));

test('re-label, apply, see the counts change, export, reload with the overrides', async () => {
  const { page, problems } = await newPage(browser, { acceptDownloads: true });
  await page.goto(server.url + OPEN);
  const model = page.getByTestId('proxy-model');
  await model.waitFor({ timeout: 30000 });
  assert.equal(await model.textContent(), 'sparrow-nano-general-v1.1');
  // The panel starts compact: Ask at the top, the request folded under it.
  const request = page.getByTestId('relabel-request');
  assert.equal(await request.evaluate((d) => d.open), false);
  assert.match(await request.locator('summary').textContent(), /^Edit the request \(\d+ questions, \d+ state fields\)$/);
  await request.locator('summary').click();
  const sub = page.locator('[data-question="sub_mode"]');
  assert.match(await sub.locator('textarea.instructions').inputValue(), /^Given the question, the reference SQL/);
  // Take the recorded sub-mode out of the options, so the new label must differ.
  const option = sub.locator('li[data-option="11"]');
  assert.equal(await option.locator('input.option-label').inputValue(), 'clickhouse_error');
  await option.locator('button').click();
  await page.getByTestId('relabel-ask').click();
  await page.getByTestId('relabel-answer').waitFor({ timeout: 30000 });
  const ps = await page.$$eval('[data-answer="sub_mode"] [data-option]', (els) => els.map((e) => Number(e.getAttribute('data-value'))));
  assert.equal(ps.length, 15);
  assert.ok(Math.abs(ps.reduce((a, b) => a + b, 0) - 1) < 1e-3, `probabilities (4 decimals) sum to 1: ${ps}`);
  assert.ok(await page.getByTestId('offline-warning').count() >= 5, 'offline warning beside every answer');
  const newSub = (await page.locator('[data-new="sub_mode"]').textContent()).trim();
  assert.notEqual(newSub, 'clickhouse_error');

  // Apply far down the page: the reader stays there, told what changed beside the button.
  await page.getByTestId('relabel-apply').scrollIntoViewIfNeeded();
  const scrolledTo = await page.evaluate(() => scrollY);
  assert.ok(scrolledTo > 2000, `the Apply button is far down the page (${scrolledTo} px)`);
  await page.getByTestId('relabel-apply').click();
  await page.getByTestId('what-changed').waitFor();
  await page.getByTestId('applied').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'applied');
  const shown = await page.getByTestId('applied').boundingBox();
  assert.ok(shown.y >= 0 && shown.y + shown.height <= 900, `the Applied line is in view (y ${shown.y})`);
  assert.equal((await page.getByTestId('relabel-apply').textContent()).trim(), 'Applied ✓');
  assert.equal(await value(page, '[data-metric="overrides:count"]'), 1);
  assert.equal(await value(page, '[data-metric="changed:labels"]'), 1);
  const gone = page.locator('[data-metric="changed:sub_mode:clickhouse_error"]');
  assert.equal(Number(await gone.getAttribute('data-before')) - Number(await gone.getAttribute('data-value')), 1);
  const added = page.locator(`[data-metric="changed:sub_mode:${newSub}"]`);
  assert.equal(Number(await added.getAttribute('data-value')) - Number(await added.getAttribute('data-before')), 1);
  // The rebuilt panel keeps the answer and now shows the new label as the one in force.
  await page.locator('[data-recorded="sub_mode"]').waitFor();
  assert.equal((await page.locator('[data-recorded="sub_mode"]').textContent()).trim(), newSub);
  assert.equal((await page.locator('[data-original="sub_mode"]').textContent()).trim(), 'clickhouse_error');
  await page.waitForFunction(() => location.search.includes('ov=1.'));
  const link = page.url();

  // The overrides' controls are a menu in the header: folded until opened.
  const exportButton = page.getByTestId('overrides-export');
  assert.equal(await exportButton.isVisible(), false);
  await page.locator('.overrides-menu summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  const exported = readFileSync(await download.path(), 'utf8');
  const file = JSON.parse(exported);
  assert.equal(file.format, 'runlens-overrides');
  assert.equal(file.overrides.length, 1);
  assert.equal(file.overrides[0].key, `gpt-4.1/${TRACE}`);
  assert.equal(file.overrides[0].original.sub_mode, 'clickhouse_error');
  assert.equal(file.overrides[0].new.sub_mode, newSub);
  assert.equal(file.overrides[0].model_id, 'sparrow-nano-general-v1.1');
  assert.match(file.overrides[0].request_hash, /^[0-9a-f]{64}$/);
  // The raw answers the new label came from: the sub-mode's 15 probabilities as shown.
  const raw = file.overrides[0].answers;
  assert.deepEqual(Object.keys(raw), ['sub_mode', 'prevented_by_rule', 'schema_hint_would_help', 'correct_despite_fail']);
  assert.equal(raw.sub_mode.choice, newSub);
  assert.equal(Object.keys(raw.sub_mode.probabilities).length, 15);
  const saved = path.join(OUT, 'relabel-overrides.json');
  writeFileSync(saved, exported);

  // The histograms and the audit queue of the same page moved by exactly this label:
  // compare with the bundle as recorded (a fresh context, no overrides).
  const cdf = (label) => label.correct_despite_fail ?? -1;
  const inQueue = (label) => (cdf(label) >= 0.65 ? 1 : 0);
  const { original, new: relabelled } = file.overrides[0];
  const metrics = [
    `sub_mode:clickhouse_error`, `sub_mode:${newSub}`,
    `family:${original.family}`, `family:${relabelled.family}`, 'failures:count',
  ];
  const readFailures = async (p) => {
    await p.getByTestId('failures-view').waitFor({ timeout: 30000 });
    const out = {};
    for (const m of metrics) out[m] = await value(p, `[data-testid="failures-view"] [data-metric="${m}"]`);
    return out;
  };
  const readQueue = async (p) => {
    await p.getByRole('tab', { name: 'Audit queue' }).click();
    await p.getByTestId('audit-view').waitFor({ timeout: 30000 });
    return value(p, '[data-testid="audit-view"] [data-metric="audit:count"]');
  };
  const recorded = await newPage(browser);
  await recorded.page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=failures&corpus=${DEV}`);
  const before = await readFailures(recorded.page);
  const queueBefore = await readQueue(recorded.page);
  await page.getByRole('tab', { name: 'Failures' }).click();
  const after = await readFailures(page);
  assert.equal(after['sub_mode:clickhouse_error'], before['sub_mode:clickhouse_error'] - 1);
  assert.equal(after[`sub_mode:${newSub}`], before[`sub_mode:${newSub}`] + 1);
  if (original.family !== relabelled.family) {
    assert.equal(after[`family:${original.family}`], before[`family:${original.family}`] - 1);
    assert.equal(after[`family:${relabelled.family}`], before[`family:${relabelled.family}`] + 1);
  }
  assert.equal(after['failures:count'], before['failures:count']);
  const queueAfter = await readQueue(page);
  assert.equal(queueAfter, queueBefore - inQueue(original) + inQueue(relabelled),
    `correct_despite_fail ${cdf(original)} → ${cdf(relabelled)}`);
  assert.deepEqual([...problems, ...recorded.problems], []);

  // The link alone (a fresh browser context: no localStorage) brings the override back.
  const second = await newPage(browser);
  await second.page.goto(link);
  await second.page.locator('[data-metric="overrides:count"]').waitFor({ timeout: 30000 });
  assert.equal(await value(second.page, '[data-metric="overrides:count"]'), 1);
  const notice = second.page.getByTestId('overridden');
  await notice.waitFor({ timeout: 30000 });
  assert.ok((await notice.textContent()).includes(`the one in force is ${newSub}`));
  // They are the link's, said so, and not written into this browser's storage.
  await second.page.getByTestId('overrides-shared').waitFor();
  const storedKeys = () => Object.keys(localStorage).filter((k) => k.startsWith('runlens-overrides:'));
  assert.deepEqual(await second.page.evaluate(storedKeys), []);

  // Without the link, importing the exported file does the same.
  const third = await newPage(browser);
  await third.page.goto(server.url + OPEN);
  await third.page.locator('[data-metric="overrides:count"]').waitFor({ timeout: 30000 });
  assert.equal(await value(third.page, '[data-metric="overrides:count"]'), 0);
  await third.page.locator('.overrides-menu summary').click();
  await third.page.getByTestId('overrides-import').setInputFiles(saved);
  await third.page.getByTestId('what-changed').waitFor();
  assert.equal(await value(third.page, '[data-metric="overrides:count"]'), 1);
  assert.equal(await value(third.page, '[data-metric="changed:labels"]'), 1);
  assert.deepEqual([...second.problems, ...third.problems], []);
});

test('with no proxy the panel says how to start one', async () => {
  const { page } = await newPage(browser);
  await page.goto(`${server.url}${OPEN}&jev=http://127.0.0.1:9`);
  await page.getByTestId('relabel-ask').waitFor({ timeout: 30000 });
  await page.locator('[data-question="sub_mode"]').waitFor({ state: 'attached' });
  await page.getByTestId('relabel-ask').click();
  const error = page.getByTestId('relabel-error');
  await error.waitFor({ timeout: 30000 });
  const text = await error.textContent();
  assert.ok(text.includes('runlens serve') && text.includes('?jev=URL'), text);
});

test('a proxy with access tokens: the panel asks for one on 401, then the answer comes', async () => {
  const token = 'e2e-reviewer-0123456789abcdef';
  const guarded = await startServer([], { RUNLENS_ACCESS_TOKENS: `ana ${token}` });
  try {
    const { page } = await newPage(browser);
    const sent = [];
    page.on('request', (r) => { if (r.url().endsWith('/v1/systemone')) sent.push(r.headers().authorization ?? null); });
    await page.goto(guarded.url + OPEN);
    await page.getByTestId('proxy-model').waitFor({ timeout: 30000 });
    await page.locator('[data-question="sub_mode"]').waitFor({ state: 'attached' });
    await page.getByTestId('relabel-ask').click();
    const prompt = page.getByTestId('token-prompt');
    await prompt.waitFor({ timeout: 30000 });
    assert.match(await prompt.locator('p').textContent(), /^This Jev proxy needs an access token/);
    await page.getByTestId('token-input').fill(token);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('relabel-answer').waitFor({ timeout: 30000 });
    assert.equal(await prompt.count(), 0);
    // The first request went without a token; the retry carried it as a bearer header.
    assert.deepEqual(sent, [null, `Bearer ${token}`]);
    assert.ok(!page.url().includes(token), 'the token is not in the URL');
  } finally {
    await guarded.stop();
  }
});
