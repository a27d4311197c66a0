/**
 * ffmpeg for a container image's bin/ (functions/media/binaries.ts finds it beside index.mjs): the render image's,
 * and the prepare image's (a video bot's recording is decoded there). arm64 (the Lambda's): the media layer's
 * build, the one place the arm64 binary comes from (layers/media's own lockfile, see build-layers.ts). x64 (tests
 * on this machine): the installed package.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLayer } from '../build-layers.ts';
import { ELF_MACHINE, elfMachine } from '../elf.ts';
import type { Arch } from './image-folder.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function ffmpegFor(arch: Arch): string {
  if (arch === 'arm64') return join(buildLayer('media'), 'bin', 'ffmpeg');
  const ffmpeg = join(root, 'node_modules', '@ffmpeg-installer', `linux-${arch}`, 'ffmpeg');
  if (!existsSync(ffmpeg)) throw new Error(`${ffmpeg} is missing: npm ci installs it on linux-${arch}`);
  return ffmpeg;
}

/** Copies the architecture's ffmpeg to `<out>/bin/ffmpeg` and checks that it is a binary of that architecture. */
export function installFfmpeg(out: string, arch: Arch): void {
  const source = ffmpegFor(arch);
  const target = join(out, 'bin', 'ffmpeg');
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
  chmodSync(target, 0o755);
  if (elfMachine(target) !== ELF_MACHINE[arch]) throw new Error(`${source} is not a linux-${arch} binary`);
}
