/**
 * `npx tsx infra/scripts/measure/cold-starts.ts [--rounds 2]`: what a cold start of each function costs in the local
 * runtime, run from tsx (as `npm start` does) and from bundles (as the test runtimes do). One runtime each way on a
 * fresh data dir (queue consumers off), then one execution environment of each function started after another; the
 * CPU is this process's (the workers are its threads), so a loaded machine changes the wall time more than it. The
 * first round of each also fills tsx's cache or builds the bundles: later rounds are what a test file meets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalRuntime } from '../../local/runtime.ts';

const FUNCTIONS = ['authorizer', 'createVideo', 'videos', 'bots', 'fetcher', 'render', 'assemble', 'notifier', 'prepare'];

async function round(bundled: boolean): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-cold-starts-'));
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir,
    consumers: false,
    logLevel: 'error',
    functionLogLevel: 'ERROR',
    bundledFunctions: bundled,
  });
  try {
    const rows: string[] = [];
    let total = 0;
    for (const name of FUNCTIONS) {
      const before = process.cpuUsage();
      const started = Date.now();
      await runtime.functions.get(name)?.prewarm();
      const { user, system } = process.cpuUsage(before);
      total += (user + system) / 1000;
      rows.push(`${name} ${Math.round((user + system) / 1000)}/${Date.now() - started}`);
    }
    return `${bundled ? 'bundles' : 'tsx    '}  CPU ${Math.round(total)} ms in all (ms CPU/wall: ${rows.join(', ')})`;
  } finally {
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
for (let i = 0; i < Number(values.rounds); i++) {
  for (const bundled of [false, true]) console.log(`round ${i + 1} ${await round(bundled)}`);
}
process.exit(0);
