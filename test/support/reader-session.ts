/**
 * A reader pasting a page's shell blocks: the page's ```bash blocks, `npm start` as the reader runs it, and one bash
 * session the blocks are pasted into (variables and functions carry from block to block, as in a terminal).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';

export interface Block {
  page: string;
  line: number;
  text: string;
}

/** The ```bash blocks of a markdown page, with the line each starts on. */
export function bashBlocks(page: string): Block[] {
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

export const commandOf = (line: string) => line.replace(/#.*$/, '').trim();
/** `VAR=value npm start` or `npm ci`: the lines of the reader's first terminal. */
export const SERVER_LINE = /^((?:[A-Z_]+=\S+\s+)*)npm (ci|start)$/;
export const isServerBlock = (block: Block) =>
  block.text
    .split('\n')
    .map(commandOf)
    .filter(Boolean)
    .every((line) => SERVER_LINE.test(line));

/** `npm start` as the reader runs it, in its own process group (stopped with Ctrl-C's signal). */
export class ReaderRuntime {
  private process?: ChildProcess;
  apiKey = '';
  webhookSecret = '';
  constructor(
    private readonly port: number,
    private readonly dataDir: string,
  ) {}

  get running() {
    return this.process?.exitCode === null;
  }

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
        const secret = /Webhook secret\s+(whsec_\S+)/.exec(out);
        if (key && secret && out.includes('Your first video')) {
          this.apiKey = key[1]!;
          this.webhookSecret = secret[1]!;
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
export class ReaderShell {
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

// python's http.server logs each request on stderr, and `vidbot … --wait` draws its progress there (a bar per
// clip, then the video's status); anything else there is a failure.
const PROGRESS = /^(clip \d+ \[[#-]+\] \w+|vid_\S+ (accepted|\w+ \(\d+\/\d+ clips\)))$/;
const SERVED = /"GET \/\S* HTTP\/1\.[01]" 200/;

/**
 * Pastes one block and asserts what a reader would see go wrong: a non-zero status, an API error, a field the answer
 * did not have, anything on stderr. Its output is kept in `workDir` for a reader of a failure. Returns its stdout.
 */
export async function pasteChecked(shell: ReaderShell, block: Block, text: string, workDir: string, index: number): Promise<string> {
  const where = `${block.page}:${block.line}`;
  // A failure names the service's own error lines, where an answer says only `internal_error`.
  const serviceErrors = () => {
    const log = join(workDir, 'data', 'logs', 'functions.log');
    if (!existsSync(log)) return '';
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"level":"ERROR"'))
      .slice(-5)
      .join('\n');
  };
  const result = await shell.paste(text, `__block_${index}_done`);
  writeFileSync(join(workDir, `${block.page.replaceAll('/', '-')}-${index}.out`), `${where}\n${result.stdout}\n--- stderr\n${result.stderr}`);
  expect(result.status, `${where}: exit status; ${result.stderr}`).toBe(0);
  expect(
    [...result.stdout.matchAll(/.{0,200}\{"error":\{"code":"[^"]*","message":"[^"]*"/g)].map((m) => m[0]),
    `${where}: API errors\n${serviceErrors()}`,
  ).toEqual([]);
  expect(
    [...result.stdout.matchAll(/.{0,80}\bundefined\b.{0,20}/g)].map((m) => m[0]),
    `${where}: a field the answer did not have`,
  ).toEqual([]);
  const complaints = result.stderr.split('\n').filter((line) => line.trim() && !SERVED.test(line) && !PROGRESS.test(line));
  expect(complaints, `${where}: stderr`).toEqual([]);
  return result.stdout;
}
