/** What `npm run bench` measures and how it prints it: the runs' figures, one shape's rows, where a video's time went. */
import { describeShape, type FrameSize, type Shape } from '#domain/shape';

export interface LogLine {
  message?: string;
  timestamp?: string;
  video_id?: string;
  [field: string]: unknown;
}

export interface Baseline {
  seconds: number;
  cpu: number;
  before: number;
  after: number;
}

/** A measured video: create to signed webhook, and the CPU of the whole service meanwhile. */
export interface VideoRun {
  seconds: number;
  cpu: number;
  t0: number;
  webhookAt: number;
  videoId: string;
  duration: number;
}

export interface ShapeRun {
  shape: Shape;
  frame: FrameSize;
  floor: Baseline;
  bare: Baseline;
  first: VideoRun;
  warm: VideoRun;
  burned: VideoRun;
  scene: VideoRun;
  loads: string;
  photo?: PhotoRun;
}

/** The same text spoken by a bot made from a photo, through the same runtime. */
export interface PhotoRun {
  seconds: number;
  cpu: number;
  duration: number;
  prepareSeconds: number;
  drawSeconds: number;
  builtInDrawSeconds: number;
}

/** The targets of docs/performance.md, against the floor. */
export const TARGETS = { first: 1.2, warm: 1.1, scene: 1.25 } as const;

export const ratio = (run: { seconds: number }, base: { seconds: number }) => (run.seconds / base.seconds).toFixed(2);
export const cpuRatio = (run: { cpu: number }, base: { cpu: number }) => (run.cpu / base.cpu).toFixed(2);

/** One shape's figures, as rows of label and value. */
export function printShape(run: ShapeRun, length: number): void {
  const { shape, frame, floor, bare, first, warm, burned, scene, photo, loads } = run;
  const row = (label: string, value: string) => console.log(`${label.padEnd(78)}${value}`);
  const video = (v: VideoRun) => `${v.seconds.toFixed(2)} s, ${ratio(v, floor)}x the floor (CPU ${v.cpu.toFixed(1)} s, ${cpuRatio(v, floor)}x)`;
  console.log(`\n${describeShape(shape)}`);
  row(`clip length (${frame.width}x${frame.height}, 30 fps, fade in and out)`, `${length.toFixed(1)} s`);
  row(
    'FLOOR: decode the background (looped) + encode, same length, size and settings',
    `${floor.seconds.toFixed(2)} s (before ${floor.before.toFixed(2)} s, after ${floor.after.toFixed(2)} s; CPU ${floor.cpu.toFixed(1)} s)`,
  );
  row('bare encode of a generated pattern (no decode)', `${bare.seconds.toFixed(2)} s (CPU ${bare.cpu.toFixed(1)} s)`);
  row(`first video after the runtime starts, create -> webhook (target <= ${TARGETS.first}x)`, video(first));
  row(`warm, create -> webhook (target <= ${TARGETS.warm}x)`, `${video(warm)}; ${ratio(warm, bare)}x the bare encode`);
  row(
    'captions: "burn", create -> webhook (target: +10 % at most over warm)',
    `${video(burned)}; ${(((burned.seconds - warm.seconds) / warm.seconds) * 100).toFixed(1)} % (CPU ${(((burned.cpu - warm.cpu) / warm.cpu) * 100).toFixed(1)} %)`,
  );
  row(`FULL SCENE (large bot, logo, title, 2 lower thirds, ducked music) (target <= ${TARGETS.scene}x)`, video(scene));
  if (photo) {
    const p = photo;
    const perSecond = p.seconds / p.duration / (warm.seconds / warm.duration);
    row('photo bot: PUT -> signed bot.ready (prepare function, warm runtime)', `${p.prepareSeconds.toFixed(2)} s`);
    row(
      `photo bot: the same text (${p.duration.toFixed(1)} s clip), create -> signed webhook`,
      `${p.seconds.toFixed(2)} s (ratio to the floor, scaled to its length: ${(p.seconds / (floor.seconds * (p.duration / length))).toFixed(2)})`,
    );
    row('PHOTO / BUILT-IN per second of video: wall time (target <= 1)', perSecond.toFixed(2));
    row(
      'photo / built-in per second of video: CPU of the whole service',
      `${(p.cpu / p.duration / (warm.cpu / warm.duration)).toFixed(2)} (${p.cpu.toFixed(1)} s / ${warm.cpu.toFixed(1)} s)`,
    );
    row('drawing the bot inside the ffmpeg pass: photo / built-in', `${p.drawSeconds.toFixed(2)} s / ${p.builtInDrawSeconds.toFixed(2)} s`);
  }
  row('load average (1/5/15 min) at the start / after the service / at the end', loads);
}

/** Where the video's time went, from the 'clip rendered' and 'video completed' log lines of its functions. */
export function printProfile(lines: LogLine[], run: { seconds: number; t0: number; webhookAt: number; videoId: string }) {
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
    `(inside the ffmpeg pass: drawing the bot's frames in Node took ${n('draw_ms').toFixed(2)} s; first frame handed to ffmpeg ${n('first_frame_ms').toFixed(2)} s after the render started; the assembly itself ${(Number(completed.assemble_ms ?? 0) / 1000).toFixed(2)} s)`,
  );
  console.log(`(the background's download and inspection took ${n('background_ms').toFixed(2)} s, alongside the speech)`);
}
