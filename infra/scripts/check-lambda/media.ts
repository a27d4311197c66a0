import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { lastLines, type Row, run } from './running.ts';
import { commandLine, nodeBinary, type Runtime } from './runtimes.ts';

const execFileAsync = promisify(execFile);

/** One second of test picture and tone encoded to H.264/AAC MP4 by an arm64 ffmpeg, then read back with ffprobe. */
export async function checkFfmpeg(label: string, ffmpeg: string, runtime: Runtime, scratch: string): Promise<Row> {
  const row: Row = { fn: label, runtime: runtime.label.replace(/^node\d+-/, 'ffmpeg-'), imported: '', invoked: '', ok: false };
  if (!existsSync(ffmpeg)) {
    row.imported = 'MISSING';
    row.invoked = '-';
    row.detail = `${ffmpeg} does not exist`;
    return row;
  }
  const out = join(scratch, `${label.replace(/\W+/g, '-')}.mp4`);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    '-y',
    out,
  ];
  const [command, commandArgs] = commandLine(runtime, ffmpeg, args);
  const { code, output, ms } = await run(command, commandArgs, { timeoutMs: 180_000 });
  row.wallMs = ms;
  row.imported = code === 0 ? 'ran' : `exit ${code}`;
  if (code !== 0 || !existsSync(out)) {
    row.invoked = '-';
    row.detail = lastLines(output);
    return row;
  }
  try {
    row.invoked = await probeClip(out);
    row.ok = true;
  } catch (error) {
    row.invoked = 'BAD OUTPUT';
    row.detail = (error as Error).message;
  }
  return row;
}

/**
 * The render image's speech thread under this runtime: espeak-worker.mjs (started as speech/espeak.ts starts it,
 * from the image's folder, with the image's espeak-ng.js and .data) says one sentence and hands back its samples and
 * its words' events (espeak-ng reports four for the five words of "Hello from the render image.": none for "the",
 * said with the word after it). That the
 * bundled index.mjs finds the file beside itself is shown by test/integration/render/bundled-handler.test.ts, which renders a
 * real job from a bundled folder.
 */
export async function checkSpeech(label: string, imageDir: string, runtime: Runtime): Promise<Row> {
  const row: Row = { fn: label, runtime: runtime.label, imported: '', invoked: '', ok: false };
  const script = [
    "import { Worker } from 'node:worker_threads';",
    `const thread = new Worker(${JSON.stringify(join(imageDir, 'espeak-worker.mjs'))}, { workerData: { modulePath: ${JSON.stringify(pathToFileURL(join(imageDir, 'espeak-ng.js')).href)} }, execArgv: [] });`,
    "thread.on('message', (m) => { const s = m.spoken; console.log(JSON.stringify({ error: m.error, samples: s?.samples.length ?? 0, words: s?.events.filter((e) => e.type === 'word').length ?? 0 })); process.exit(0); });",
    "thread.on('error', (e) => { console.log(JSON.stringify({ error: String(e) })); process.exit(1); });",
    "thread.postMessage({ id: 1, op: 'speak', request: { voice: 'gmw/en-US', text: '<speak>Hello from the render image.</speak>' } });",
  ].join('\n');
  const [command, args] = commandLine(runtime, nodeBinary(runtime.arch!), ['--input-type=module', '-e', script]);
  const { code, output, ms } = await run(command, args, { cwd: imageDir, timeoutMs: 300_000 });
  row.wallMs = ms;
  row.imported = code === 0 ? 'ran' : `exit ${code}`;
  let reply: { error?: string; samples?: number; words?: number } = {};
  try {
    reply = JSON.parse(output.trim().split('\n').pop() ?? '{}');
  } catch {
    reply = { error: lastLines(output) };
  }
  if (code === 0 && !reply.error && (reply.samples ?? 0) > 20_000 && (reply.words ?? 0) >= 3) {
    row.invoked = `${reply.samples} samples, ${reply.words} words timed`;
    row.ok = true;
  } else {
    row.invoked = 'NO SPEECH';
    row.detail = reply.error ?? lastLines(output);
  }
  return row;
}

/**
 * The render image's transcript aligner under this runtime: soundswallower from the image's `soundswallower/` (its
 * module, WebAssembly and en-us model, as speech/alignment.ts loads them) initialised, and a second of silence
 * decoded against one word: it must load and run, whatever it finds in silence.
 */
export async function checkAligner(label: string, imageDir: string, runtime: Runtime): Promise<Row> {
  const row: Row = { fn: label, runtime: runtime.label, imported: '', invoked: '', ok: false };
  const entry = pathToFileURL(join(imageDir, 'soundswallower', 'soundswallower.node.js')).href;
  const script = [
    `const { default: createModule } = await import(${JSON.stringify(entry)});`,
    `const module = await createModule({ modelBase: ${JSON.stringify(`${join(imageDir, 'soundswallower', 'model')}/`)}, defaultModel: 'en-us' });`,
    "const decoder = new module.Decoder({ samprate: 16000, loglevel: 'FATAL' });",
    'await decoder.initialize();',
    "const known = decoder.lookup_word('hello') !== null;",
    "decoder.set_align_text('hello');",
    'decoder.start(); decoder.process_audio(new Float32Array(16000), false, true); decoder.stop();',
    'console.log(JSON.stringify({ known }));',
  ].join('\n');
  const [command, args] = commandLine(runtime, nodeBinary(runtime.arch!), ['--input-type=module', '-e', script]);
  const { code, output, ms } = await run(command, args, { cwd: imageDir, timeoutMs: 300_000 });
  row.wallMs = ms;
  row.imported = code === 0 ? 'ran' : `exit ${code}`;
  let reply: { known?: boolean } = {};
  try {
    reply = JSON.parse(output.trim().split('\n').pop() ?? '{}');
  } catch {
    reply = {};
  }
  if (code === 0 && reply.known) {
    row.invoked = 'model loaded, one second decoded';
    row.ok = true;
  } else {
    row.invoked = 'NO ALIGNER';
    row.detail = lastLines(output);
  }
  return row;
}

async function probeClip(file: string): Promise<string> {
  const bytes = readFileSync(file);
  if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') throw new Error(`${file} is not an MP4 (no ftyp box)`);
  let ffprobe: string;
  try {
    ffprobe = (await import('@ffprobe-installer/ffprobe')).default.path;
  } catch {
    return `MP4 ${bytes.length} B (ffprobe not installed: streams not checked)`;
  }
  const { stdout } = await execFileAsync(ffprobe, [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  const probe = JSON.parse(stdout);
  const video = probe.streams.find((s: any) => s.codec_type === 'video');
  const audio = probe.streams.find((s: any) => s.codec_type === 'audio');
  const duration = Number(probe.format.duration);
  if (video?.codec_name !== 'h264' || video.width !== 320 || video.height !== 240 || Number(video.nb_read_frames) !== 25)
    throw new Error(`unexpected video stream: ${JSON.stringify(video)}`);
  if (audio?.codec_name !== 'aac') throw new Error(`unexpected audio stream: ${JSON.stringify(audio)}`);
  if (!(duration > 0.9 && duration < 1.2)) throw new Error(`duration ${duration} s, not about 1 s`);
  return `h264 320x240 25 frames + aac, ${duration.toFixed(2)} s, ${bytes.length} B`;
}
