/**
 * `npx tsx infra/scripts/measure/photo-prepare-time.ts [<photo>] [runs]`: how long preparing a photo bot takes, in one process
 * (the models loaded first, then `runs` preparations of the same photo, default 3): wall time and the process's CPU
 * time (user + system) of each, so that a figure taken while the machine is shared still compares.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPhotoLook, loadPhotoModels } from '../../../functions/prepare/photo-look.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../../..');
const photo = readFileSync(process.argv[2] ?? join(repo, 'test/fixtures/prepare/portrait.jpg'));
const runs = Number(process.argv[3] ?? 3);

const seconds = (ms: number) => (ms / 1000).toFixed(2);
let started = performance.now();
await loadPhotoModels();
console.log(`models: ${seconds(performance.now() - started)} s`);
for (let run = 1; run <= runs; run++) {
  started = performance.now();
  const cpu = process.cpuUsage();
  const look = await buildPhotoLook(photo);
  const used = process.cpuUsage(cpu);
  console.log(
    `preparation ${run}: ${seconds(performance.now() - started)} s wall, ${seconds((used.user + used.system) / 1000)} s CPU, ` +
      `${Object.keys(look.manifest.head.frames).length} head frames, density ${look.manifest.density}`,
  );
}
