/**
 * `npx tsx infra/scripts/measure/runtime-memory.ts [--videos 50] [--every 10]`: what `npm start` holds after many renders.
 * Starts `npm start` as a user does (a fresh data dir, a free port), makes one-clip videos one after another (each
 * text different, so every one is rendered), and after every `--every` videos prints the whole process tree's
 * resident memory (npm, the runtime and every process under it: workers are threads, so they count in the runtime's
 * own) and its helper processes by name. Linux: it reads /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../../..');
const BOTS = ['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto'];

interface ProcessInfo {
  pid: number;
  parent: number;
  name: string;
  rssKb: number;
}

function processes(): ProcessInfo[] {
  const list: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
      list.push({ pid: Number(entry), parent: Number(field('PPid')), name: field('Name'), rssKb: Number.parseInt(field('VmRSS'), 10) || 0 });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}

/** The process and all its descendants. */
function tree(root: number): ProcessInfo[] {
  const all = processes();
  const found = all.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) found.push(...all.filter((p) => p.parent === found[i]!.pid));
  return found;
}

function describeTree(root: number): string {
  const members = tree(root);
  const totalMb = members.reduce((sum, p) => sum + p.rssKb, 0) / 1024;
  const largest = Math.max(...members.map((p) => p.rssKb)) / 1024;
  const byName = new Map<string, number>();
  for (const p of members) byName.set(p.name, (byName.get(p.name) ?? 0) + 1);
  const names = [...byName].map(([name, count]) => `${name} ${count}`).join(', ');
  return `${totalMb.toFixed(0)} MB in ${members.length} processes (largest ${largest.toFixed(0)} MB; ${names})`;
}

const freePort = () =>
  new Promise<number>((ok) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });

async function startRuntime(port: number, dataDir: string): Promise<{ child: ChildProcess; key: string; inbox: string }> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: String(port), VIDBOT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((ready, failed) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const key = /API key\s+(vb_\S+)/.exec(out)?.[1];
      const inbox = /"webhook": "([^"]+)"/.exec(out)?.[1];
      if (key && inbox) ready({ child, key, inbox });
    });
    child.once('exit', (code) => failed(new Error(`npm start exited ${code}: ${out}`)));
  });
}

async function main() {
  const { values } = parseArgs({ options: { videos: { type: 'string', default: '50' }, every: { type: 'string', default: '10' } } });
  const videos = Number(values.videos);
  const every = Number(values.every);
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-memory-'));
  const started = Date.now();
  const { child, key, inbox } = await startRuntime(port, dataDir);
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  console.log(`[${seconds()} s] after start: ${describeTree(child.pid!)}`);
  try {
    for (let i = 1; i <= videos; i++) {
      const body = { webhook: inbox, clips: [{ bot_uid: BOTS[i % BOTS.length], text: `Video number ${i}: a short hello from the memory check.` }] };
      const created = (await (await fetch(`${base}/v1/bot`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { video_id: string };
      let status = 'queued';
      while (status !== 'completed' && status !== 'failed') {
        await new Promise((tick) => setTimeout(tick, 500));
        status = ((await (await fetch(`${base}/v1/video/${created.video_id}`, { headers })).json()) as { status: string }).status;
      }
      if (status === 'failed') throw new Error(`video ${created.video_id} failed`);
      if (i % every === 0 || i === videos) console.log(`[${seconds()} s] after ${i} videos: ${describeTree(child.pid!)}`);
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
