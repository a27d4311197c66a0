/** What `npm run bench` measures and how it prints it: paired rows against the floor, where a video's time went. */
import { cpus, totalmem } from 'node:os';
import { type CpuSplit, describeSplit, functionsCpu, runtimeCpu } from './threads.ts';

export interface LogLine {
  message?: string;
  timestamp?: string;
  video_id?: string;
  [field: string]: unknown;
}

/**
 * A measured video: create to signed webhook, and the CPU of the whole service meanwhile, plus `after`: the
 * service's CPU while its floor ran (what the video left running past its webhook, and the idle runtime), which
 * `cpu` includes.
 */
export interface VideoRun {
  seconds: number;
  cpu: number;
  after?: number;
  /** `cpu` by thread: the functions' own (on AWS, the video's) and the local runtime's. */
  split?: CpuSplit;
  t0: number;
  webhookAt: number;
  videoId: string;
  duration: number;
}

/** A floor run: wall and CPU seconds of the one ffmpeg process. */
export interface FloorRun {
  seconds: number;
  cpu: number;
}

/** A service video and the floor of its length and shape, run right after it. */
export interface Pair {
  video: VideoRun;
  floor: FloorRun;
  load: number;
}

/** One row of the table: a shape and a presenter kind (or the ordinary request), its pairs. */
export interface Row {
  shape: string;
  kind: string;
  pairs: Pair[];
  /** The row's target against the floor (wall and CPU). */
  target: number;
  startedAt: Date;
}

/**
 * The targets against the floor (issue 28): the ordinary request warm ≤ 1.10 and first ≤ 1.20; a built-in
 * presenter's row ≤ 1.10; every other row ≤ 1.25.
 */
export const TARGETS = { first: 1.2, warm: 1.1, builtIn: 1.1, other: 1.25 } as const;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const wallRatios = (row: Row) => row.pairs.map((p) => p.video.seconds / p.floor.seconds);
export const cpuRatios = (row: Row) => row.pairs.map((p) => p.video.cpu / p.floor.cpu);

/** The CPU ratio is the row's verdict: unlike wall time it survives a loaded machine. */
export const meets = (row: Row) => median(cpuRatios(row)) <= row.target;

const f2 = (n: number) => n.toFixed(2);

/** One pair as a line, as it is measured. */
export function printPair(row: Row, pair: Pair): void {
  const { video, floor } = pair;
  console.log(
    `${row.shape.padEnd(11)} ${row.kind.padEnd(16)} clip ${video.duration.toFixed(1)} s | service ${f2(video.seconds)} s, CPU ${f2(video.cpu)} s` +
      `${video.after === undefined ? '' : ` (${f2(video.after)} s of it after the webhook)`} | ` +
      `floor ${f2(floor.seconds)} s, CPU ${f2(floor.cpu)} s | wall ${f2(video.seconds / floor.seconds)}x, CPU ${f2(video.cpu / floor.cpu)}x | load ${f2(pair.load)}`,
  );
  if (video.split) console.log(`  the service's CPU by thread: ${describeSplit(video.split)}`);
}

/** The machine the figures were taken on. */
export function machine(): string {
  const cores = cpus();
  return `${cores.length} x ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}`;
}

/**
 * The split's columns: the functions' threads and ffmpeg against the runtime's rest, and the
 * functions' CPU against the floor, what the video would cost with each function on its own machine.
 */
function splitCells(row: Row): string {
  const splits = row.pairs.flatMap((p) => (p.video.split ? [{ split: p.video.split, floor: p.floor.cpu }] : []));
  if (!splits.length) return '- | -';
  const fns = median(splits.map((s) => functionsCpu(s.split)));
  const rest = median(splits.map((s) => runtimeCpu(s.split)));
  return `${f2(fns)} s, ${f2(rest)} s | ${f2(median(splits.map((s) => functionsCpu(s.split) / s.floor)))}`;
}

/** The table of docs/performance.md: shape × presenter, median wall and CPU ratios, the floor, the load. */
export function printTable(rows: Row[]): void {
  console.log(`\nmachine: ${machine()}`);
  console.log(
    '| Shape | Presenter | Clip | Service: wall, CPU (median) | Floor: wall, CPU (median) | Wall ratio: median (range) | **CPU ratio**: median (range) | Target | Of the service CPU: functions + ffmpeg, runtime (median) | Functions CPU ratio | Load (1 min) | UTC |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const wall = wallRatios(row);
    const cpu = cpuRatios(row);
    const range = (v: number[]) => (v.length > 1 ? ` (${f2(Math.min(...v))}-${f2(Math.max(...v))})` : '');
    const loads = row.pairs.map((p) => p.load);
    console.log(
      `| ${row.shape} | ${row.kind} | ${median(row.pairs.map((p) => p.video.duration)).toFixed(1)} s | ` +
        `${f2(median(row.pairs.map((p) => p.video.seconds)))} s, ${f2(median(row.pairs.map((p) => p.video.cpu)))} s | ` +
        `${f2(median(row.pairs.map((p) => p.floor.seconds)))} s, ${f2(median(row.pairs.map((p) => p.floor.cpu)))} s | ` +
        `${f2(median(wall))}${range(wall)} | **${f2(median(cpu))}**${range(cpu)} | ${meets(row) ? '≤' : '**>**'} ${row.target} | ${splitCells(row)} | ` +
        `${f2(Math.min(...loads))}-${f2(Math.max(...loads))} | ${row.startedAt.toISOString().slice(11, 16)} |`,
    );
  }
  console.log(`(${rows.reduce((n, r) => n + r.pairs.length, 0)} pairs; a row meets its target when its median CPU ratio does)`);
}

/** Where the video's time went, from the 'clip rendered' and 'video completed' log lines of its functions. */
export function printProfile(lines: LogLine[], run: VideoRun) {
  const of = (message: string) => lines.find((l) => l.video_id === run.videoId && l.message === message);
  const rendered = of('clip rendered');
  const completed = of('video completed');
  if (!rendered || !completed) return console.log('\n(no profile: the functions logged no "clip rendered" / "video completed" line)');
  const n = (field: string) => Number(rendered[field] ?? 0) / 1000;
  const renderedAt = Date.parse(rendered.timestamp!);
  const renderStart = renderedAt - Number(rendered.render_ms);
  const completedAt = Date.parse(completed.timestamp!);
  const engine = n('speech_ms') + n('setup_ms') + n('encode_ms');
  const rows: [string, number][] = [
    ['create request, render queue hop, cache lookups', (renderStart - run.t0) / 1000],
    // The background downloads while the speech is synthesised: what is left of it after the speech is waited
    // for in the setup row, so the two rows add up to the wall time.
    ['speech synthesis (espeak-ng), the background fetched meanwhile', n('speech_ms')],
    ['rest of the background fetch and inspection, sprites, lip sync, poses, command', n('setup_ms')],
    ['ffmpeg: background decode, overlay, encode (one pass)', n('encode_ms')],
    ['upload of the clip', n('upload_ms')],
    ['other render job work', Math.max(0, n('render_ms') - engine - n('upload_ms'))],
    ['clip recorded, assemble queue hop, assembly', (completedAt - renderedAt) / 1000],
    ['notify queue hop, signed webhook delivered', (run.webhookAt - completedAt) / 1000],
  ];
  console.log(`\nWhere the time went (video ${run.videoId}):`);
  console.log(`| Stage | Seconds | Share |\n|---|---|---|`);
  for (const [label, seconds] of rows) console.log(`| ${label} | ${seconds.toFixed(2)} | ${((seconds / run.seconds) * 100).toFixed(1)} % |`);
  console.log(`| **create → webhook** | **${run.seconds.toFixed(2)}** | 100 % |`);
  console.log(
    `(inside the ffmpeg pass: drawing the bot's frames in Node took ${n('draw_ms').toFixed(2)} s; first frame handed to ffmpeg ${n('first_frame_ms').toFixed(2)} s after the render started; the assembly itself ${(Number(completed.assemble_ms ?? 0) / 1000).toFixed(2)} s; ffmpeg runs the render started: ${rendered.ffmpeg_runs ?? '?'})`,
  );
}
