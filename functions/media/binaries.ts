/**
 * Where ffmpeg (4.1), the one media binary (see media.ts), lives. In order:
 *   1. FFMPEG_PATH / FFPROBE_PATH;
 *   2. `bin/` next to the running module — the container image, where the render bundle (index.mjs) sits
 *      beside bin/ffmpeg (see infra/scripts/bundle-render.ts);
 *   3. /opt/bin — the media Lambda layer;
 *   4. the @ffmpeg-installer package (development and tests).
 * Resolved once per process.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function resolveBinary(name: 'ffmpeg', envVar: string, installer: string): string {
  const fromEnv = process.env[envVar];
  if (fromEnv) return fromEnv;
  for (const candidate of [join(here, 'bin', name), join('/opt/bin', name)]) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    // Loaded lazily: the installer packages are absent from the bundle and throw on an unsupported platform.
    const require = createRequire(import.meta.url);
    return (require(installer) as { path: string }).path;
  } catch (error) {
    throw new Error(`${name} not found: set ${envVar}, or ship bin/${name} next to the bundle, or /opt/bin/${name} (${String(error)})`);
  }
}

let ffmpeg: string | undefined;

export const ffmpegPath = (): string => (ffmpeg ??= resolveBinary('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg'));
