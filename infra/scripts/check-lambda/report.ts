/** The end of check:lambda: what ran, what failed and why, as a table. */
import type { Row } from './running.ts';

function printTable(rows: Row[]): void {
  const header = ['function', 'runtime', 'import', 'invoke result', 'import ms', 'invoke ms', 'process ms'];
  const cells = rows.map((r) => [
    r.fn,
    r.runtime,
    r.imported,
    r.invoked,
    r.importMs?.toString() ?? '',
    r.invokeMs?.toString() ?? '',
    r.wallMs?.toString() ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i >= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
}

export const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

/** The table, each failure's detail and the skipped runtimes; the exit code (arm64 skipped fails with --require-arm64). */
export function report(rows: Row[], skipped: string[], started: number, requireArm64: boolean): number {
  printTable(rows);
  for (const row of rows.filter((r) => r.detail)) console.log(`\n${row.fn} on ${row.runtime}:\n${row.detail}`);
  for (const line of skipped) console.log(`\n${line}`);
  const failed = rows.filter((r) => !r.ok);
  const arm64Skipped = skipped.some((s) => s.includes('arm64'));
  console.log(
    `\ncheck:lambda: ${rows.length - failed.length}/${rows.length} checks passed${skipped.length ? `, ${skipped.length} runtime(s) skipped` : ''}, in ${seconds(started)}`,
  );
  if (failed.length) return 1;
  if (arm64Skipped && requireArm64) {
    console.error('check:lambda: --require-arm64, but the arm64 runtime could not run (see above)');
    return 1;
  }
  return 0;
}
