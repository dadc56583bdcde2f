// What the benchmarks share (not tests).

/** `[--runs N] [--bundles DIR] NAME=URL_PATH ...` → `{ runs, serveArgs, targets }`;
 * `runs` is `defaultRuns` unless given. */
export function benchArgs(argv, defaultRuns) {
  let runs = defaultRuns;
  const serveArgs = [];
  const targets = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--bundles') serveArgs.push('--bundles', argv[++i]);
    else { const [name, url] = argv[i].split('='); targets.push({ name, url }); }
  }
  return { runs, serveArgs, targets };
}

/** In the page (`page.waitForFunction(drawn, selector)`): whether a canvas under `sel` has a
 * pixel unlike its top-left one. */
export const drawn = (sel) => {
  for (const c of document.querySelectorAll(`${sel} canvas`)) {
    if (!c.width || !c.height) continue;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return true;
  }
  return false;
};
