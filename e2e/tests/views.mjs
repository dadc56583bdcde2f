// Every view of the sample: the query that opens it and a selector that shows it is drawn.
export const DEV = 'text2sqlbench-synthetic-dev';
const TRACE = 'e0a350e98f047e596b61450060b0f0cd';

export const VIEWS = {
  leaderboard: ['', '[data-testid="leaderboard-view"] canvas[role="img"]'],
  matrix: [`&tab=matrix&corpus=${DEV}`, '.mx-row[data-trace]'],
  ranking: ['&tab=ranking', '[data-testid="ranking-view"] [data-metric^="recall@"]'],
  failures: [`&tab=failures&corpus=${DEV}`, '.fail-row[data-trace]'],
  audit: [`&tab=audit&corpus=${DEV}`, '[data-testid="audit-detail"]'],
  gate: ['&tab=gate', '[data-testid="gate-headline"]'],
  trajectory: [`&tab=trajectory&corpus=${DEV}&tmodel=gpt-4.1&trace=${TRACE}`, '[data-testid="relabel-panel"]'],
  compare: ['&tab=compare', '[data-testid="compare-runs"] button'],
};
