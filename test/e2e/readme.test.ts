/**
 * The README runs as written. Every ```bash block of README.md, then of docs/api.md, is pasted into one bash session
 * (variables and functions carry from block to block, as in a reader's terminal) in a folder that has the
 * repository's examples/, functions/ and node_modules/, against `npm start` on a temporary data dir. A block made only of
 * `npm ci` and `npm start` lines is the reader's first terminal: `npm ci` is this checkout's install, and each
 * `npm start` (re)starts the runtime with the variables the line gives, on the same data dir and port.
 *
 * What a reader types differently from the page, and only that: the key `npm start` printed for `vb_...`, and
 * free ports for 3000 and 9999 (another runtime or test may hold those). Each must occur on the page.
 * `VIDBOT_README_KEEP=1` keeps the session's folder (its videos) and prints where it is; `VIDBOT_README_PICTURE=1`
 * writes docs/scene.png, the scene's frames at 2 s (the lower third) and 5.5 s (gone) side by side.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { probe } from '#media/probe';
import { frameRgb } from '../support/render-media.ts';

/** docs/scene.png: two frames of the README's scene, at half size, side by side. */
async function scenePicture(video: string, frame: { width: number; height: number }) {
  const half = { width: frame.width / 2, height: frame.height / 2 };
  const tile = async (seconds: number) =>
    sharp(await frameRgb(video, seconds, frame.width, frame.height), { raw: { ...frame, channels: 3 } })
      .resize(half)
      .png()
      .toBuffer();
  await sharp({ create: { width: half.width * 2 + 24, height: half.height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: await tile(2), left: 0, top: 0 },
      { input: await tile(5.5), left: half.width + 24, top: 0 },
    ])
    .png()
    .toFile(resolve(REPO_ROOT, 'docs', 'scene.png'));
}

interface Block {
  page: string;
  line: number;
  text: string;
}

/** The ```bash blocks of a markdown page, with the line each starts on. */
function bashBlocks(page: string): Block[] {
  const lines = readFileSync(resolve(REPO_ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```bash') continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++;
    blocks.push({ page, line: start + 1, text: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

const commandOf = (line: string) => line.replace(/#.*$/, '').trim();
/** `VAR=value npm start` or `npm ci`: the lines of the reader's first terminal. */
const SERVER_LINE = /^((?:[A-Z_]+=\S+\s+)*)npm (ci|start)$/;
const isServerBlock = (block: Block) =>
  block.text
    .split('\n')
    .map(commandOf)
    .filter(Boolean)
    .every((line) => SERVER_LINE.test(line));

const freePort = () =>
  new Promise<number>((ok) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });

/** `npm start` as the reader runs it, in its own process group (stopped with Ctrl-C's signal). */
class ReaderRuntime {
  private process?: ChildProcess;
  apiKey = '';
  constructor(
    private readonly port: number,
    private readonly dataDir: string,
  ) {}

  async start(variables: Record<string, string>) {
    await this.stop();
    const child = spawn('npm', ['start'], {
      cwd: REPO_ROOT,
      detached: true,
      env: { ...process.env, ...variables, PORT: String(this.port), VIDBOT_DATA_DIR: this.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    let out = '';
    child.stderr!.on('data', (chunk) => {
      out += chunk;
    });
    await new Promise<void>((ready, failed) => {
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const key = /API key\s+(vb_\S+)/.exec(out);
        if (key && out.includes('Your first video')) {
          this.apiKey = key[1]!;
          ready();
        }
      });
      child.once('exit', (code) => failed(new Error(`npm start exited ${code}: ${out}`)));
    });
  }

  async stop() {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    this.process = undefined;
  }
}

/** One bash session; each block is written to it whole and read back up to a marker. */
class ReaderShell {
  private readonly bash: ChildProcess;
  private out = '';
  private err = '';
  constructor(cwd: string) {
    this.bash = spawn('bash', ['--norc', '--noprofile'], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.bash.stdout!.on('data', (chunk) => {
      this.out += chunk;
    });
    this.bash.stderr!.on('data', (chunk) => {
      this.err += chunk;
    });
  }

  async paste(text: string, marker: string): Promise<{ stdout: string; stderr: string; status: number }> {
    this.out = '';
    this.err = '';
    this.bash.stdin!.write(`${text}\necho "${marker} $?"\n`);
    const done = new RegExp(`${marker} (\\d+)\\n`);
    while (!done.test(this.out)) {
      if (this.bash.exitCode !== null) throw new Error(`bash exited: ${this.err}`);
      await new Promise((tick) => setTimeout(tick, 200));
    }
    const status = Number(done.exec(this.out)![1]);
    return { stdout: this.out.replace(done, ''), stderr: this.err, status };
  }

  close() {
    if (this.bash.exitCode === null) process.kill(-this.bash.pid!, 'SIGTERM');
  }
}

describe('the README, pasted block by block', () => {
  let workDir: string;
  let runtime: ReaderRuntime;
  let shell: ReaderShell;
  let port: number;
  let filesPort: number;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'vidbot-readme-'));
    symlinkSync(resolve(REPO_ROOT, 'examples'), join(workDir, 'examples'));
    symlinkSync(resolve(REPO_ROOT, 'functions'), join(workDir, 'functions'));
    // `npx vidbot` runs the checkout's CLI (node_modules/.bin), as in the repository's folder.
    symlinkSync(resolve(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'));
    port = await freePort();
    filesPort = await freePort();
    runtime = new ReaderRuntime(port, join(workDir, 'data'));
    shell = new ReaderShell(workDir);
  });
  afterAll(async () => {
    shell?.close();
    await runtime?.stop();
    if (process.env.VIDBOT_README_KEEP === '1') console.log(`the README session's folder: ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  });

  it('every block works, and its videos are made', async () => {
    const blocks = [...bashBlocks('README.md'), ...bashBlocks('docs/api.md')];
    const pages = blocks.map((b) => b.text).join('\n');
    for (const typed of ['KEY=vb_...', '127.0.0.1:3000', '9999']) expect(pages, `the pages name ${typed}`).toContain(typed);
    const settledLines: string[] = [];
    for (const [index, block] of blocks.entries()) {
      const where = `${block.page}:${block.line}`;
      if (isServerBlock(block)) {
        for (const line of block.text.split('\n').map(commandOf).filter(Boolean)) {
          const [, assignments, command] = SERVER_LINE.exec(line)!;
          if (command !== 'start') continue;
          const variables = Object.fromEntries(
            assignments!
              .trim()
              .split(/\s+/)
              .filter(Boolean)
              .map((pair) => pair.split('=') as [string, string])
              .map(([name, value]) => [name, value.replaceAll('9999', String(filesPort))]),
          );
          await runtime.start(variables);
        }
        continue;
      }
      const text = block.text
        .replaceAll('KEY=vb_...', `KEY=${runtime.apiKey}`)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
        .replaceAll('9999', String(filesPort));
      const result = await shell.paste(text, `__block_${index}_done`);
      // Each block's output beside the videos, for a reader of a failure (kept with VIDBOT_README_KEEP=1).
      writeFileSync(join(workDir, `block-${index}.out`), `${where}\n${result.stdout}\n--- stderr\n${result.stderr}`);
      expect(result.status, `${where}: exit status; ${result.stderr}`).toBe(0);
      expect(
        [...result.stdout.matchAll(/\{"error":\{"code":"[^"]*","message":"[^"]*"/g)].map((m) => m[0]),
        `${where}: API errors`,
      ).toEqual([]);
      expect(
        [...result.stdout.matchAll(/.{0,80}\bundefined\b.{0,20}/g)].map((m) => m[0]),
        `${where}: a field the answer did not have`,
      ).toEqual([]);
      // python's http.server logs each request on stderr, and `vidbot … --wait` draws its progress there (a bar per
      // clip, then the video's status); anything else there is a failure.
      const progress = /^(clip \d+ \[[#-]+\] \w+|vid_\S+ (accepted|\w+ \(\d+\/\d+ clips\)))$/;
      const complaints = result.stderr
        .split('\n')
        .filter((line) => line.trim() && !/"GET \/\S* HTTP\/1\.[01]" 200/.test(line) && !progress.test(line));
      expect(complaints, `${where}: stderr`).toEqual([]);
      // `settled` prints `v1/…: <status>`, after an answer that may end without a newline.
      settledLines.push(...[...result.stdout.matchAll(/(v1\/[^\s"]+): (\w+)$/gm)].map((m) => `${m[1]}: ${m[2]}`));
    }

    expect(settledLines.length).toBeGreaterThanOrEqual(4);
    for (const line of settledLines) expect(line).toMatch(/: (completed|ready)$/);
    const picture = async (file: string) => {
      const probed = await probe(join(workDir, file), 'mov');
      return { ...probed.streams.find((stream) => stream.codec_type === 'video'), duration: probed.format.duration };
    };
    expect(await picture('video.mp4')).toMatchObject({ width: 1280, height: 720 });
    const scene = await picture('scene.mp4');
    expect(scene).toMatchObject({ width: 720, height: 1280 });
    expect(scene.duration).toBeGreaterThan(4);
    expect(statSync(join(workDir, 'scene.mp4')).size).toBeGreaterThan(50_000);
    if (process.env.VIDBOT_README_PICTURE === '1') await scenePicture(join(workDir, 'scene.mp4'), { width: 720, height: 1280 });
  }, 1_500_000);
});
