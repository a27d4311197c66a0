/**
 * A video bot's look and its footage rig, with the real models and ffmpeg. The recordings are made here from the
 * test photos of real people (test/fixtures/prepare: a portrait, a group), filmed by a slow camera move: no
 * registry package ships a recording of a person speaking (see docs/video-bots.md, "Test material"), so these tests
 * hold the preparation and the blend to the person's own closed mouth; the speaking measures are taken on real
 * footage with infra/scripts/video-bot-measures.ts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotManifest } from '#domain/look';
import { readFootage } from '#functions/media/footage-media.ts';
import { runFfmpeg } from '#functions/media/media.ts';
import { buildFootageLook } from '#functions/prepare/footage/footage-look.ts';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { FootageRig } from '#functions/render/engine/footage/footage-rig.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/prepare');

let root: string;
let look: PreparedLook;
let lookDir: string;

/** A recording of a photo: `seconds` at 30 fps, the camera drifting a few px and zooming by 2 % (a person holding still). */
async function filmPhoto(photo: string, seconds: number, name: string): Promise<string> {
  const path = join(root, name);
  const zoom = "zoompan=z='1.02+0.01*sin(on/40)':x='iw/2-(iw/zoom/2)+3*sin(on/25)':y='ih/2-(ih/zoom/2)+2*sin(on/31)':d=1:s=480x608:fps=30";
  await runFfmpeg(
    [
      '-y',
      '-loop',
      '1',
      '-i',
      join(FIXTURES, photo),
      '-vf',
      `scale=480:608,${zoom}`,
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      path,
    ],
    { budgetSeconds: 120 },
  );
  return path;
}

async function refusal(path: string): Promise<string> {
  try {
    await buildFootageLook(path, statSync(path).size, mkdtempSync(join(root, 'work-')));
  } catch (error) {
    if (error instanceof LookError) return error.code;
    throw error;
  }
  return 'accepted';
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-footage-'));
  const recording = await filmPhoto('portrait.jpg', 11, 'portrait.mp4');
  look = await buildFootageLook(recording, statSync(recording).size, mkdtempSync(join(root, 'work-')));
  lookDir = mkdtempSync(join(root, 'look-'));
  for (const [file, bytes] of look.files) writeFileSync(join(lookDir, file), bytes);
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a video bot from a recording', () => {
  it('keeps the whole recording, a loop inside it, the face on every frame and an atlas with the closed mouth', () => {
    const footage = look.manifest.footage!;
    expect(footage.frames).toBe(330);
    expect(footage.loop.to - footage.loop.from).toBeGreaterThanOrEqual(90);
    const track = JSON.parse(look.files.get(footage.track)!.toString()) as number[][];
    expect(track).toHaveLength(footage.frames);
    expect(track.every((frame) => frame.length === 136)).toBe(true);
    expect(footage.samples.some((s) => s.frame === 'm0')).toBe(true);
    for (const file of [footage.file, footage.loop.file, footage.atlas, look.manifest.preview])
      expect(look.files.get(file)?.length).toBeGreaterThan(1000);
  });

  it('holds a still face still: the smoothed landmarks move less than a pixel a frame beyond the camera', () => {
    const footage = look.manifest.footage!;
    const track = JSON.parse(look.files.get(footage.track)!.toString()) as number[][];
    // The nose's bridge (27) and tip (30): the camera moves them together; their distance is the face's own.
    const span = track.map((f) => Math.hypot(f[60]! - f[54]!, f[61]! - f[55]!));
    const steps = span.slice(1).map((s, i) => Math.abs(s - span[i]!));
    console.log(`footage track: nose span step median ${median(steps).toFixed(3)} px, max ${Math.max(...steps).toFixed(3)} px`);
    expect(Math.max(...steps)).toBeLessThan(1);
  });

  it('draws the mouth without a seam, as still as the footage, and with no jump where the loop starts again', async () => {
    const manifest = look.manifest as BotManifest;
    const footage = manifest.footage!;
    const rig = await FootageRig.open(lookDir, manifest, 608, true);
    const base = readFootage(join(lookDir, footage.loop.file), rig, { loop: true, seconds: 30 });
    const loopLength = footage.loop.to - footage.loop.from;
    const count = loopLength + 10;
    const drawn: Buffer[] = [];
    const plain: Buffer[] = [];
    try {
      for (let i = 0; i < count; i++) {
        drawn.push(Buffer.from(await rig.render(i, { frame: 'm0' }, 30)));
        plain.push(Buffer.from((await base.next())!));
      }
    } finally {
      rig.close();
      base.close();
    }
    const box = mouthBoxOf(manifest, rig.height / manifest.height, footage.loop.from, look);
    // Seam: the drawn frame differs from the footage only a little anywhere (the same mouth, redrawn).
    const change = drawn.map((d, i) => meanDiff(d, plain[i]!, rig.width, box));
    // Stillness: frame to frame, the mouth region changes no more than the footage's own.
    const drawnSteps = drawn.slice(1).map((d, i) => meanDiff(d, drawn[i]!, rig.width, box));
    const plainSteps = plain.slice(1).map((d, i) => meanDiff(d, plain[i]!, rig.width, box));
    // The loop's wrap: frame loopLength - 1 to loopLength (the loop's first frame again).
    const wrap = meanDiff(drawn[loopLength]!, drawn[loopLength - 1]!, rig.width, { x: 0, y: 0, w: rig.width, h: rig.height });
    const whole = drawn.slice(1, loopLength).map((d, i) => meanDiff(d, drawn[i]!, rig.width, { x: 0, y: 0, w: rig.width, h: rig.height }));
    console.log(
      `footage rig: mouth vs footage ${median(change).toFixed(2)} (max ${Math.max(...change).toFixed(2)}); mouth steps ${median(drawnSteps).toFixed(2)} vs footage ${median(plainSteps).toFixed(2)}; loop wrap ${wrap.toFixed(2)} vs steps' 95th ${quantile(whole, 0.95).toFixed(2)}`,
    );
    expect(Math.max(...change)).toBeLessThan(8);
    expect(median(drawnSteps)).toBeLessThanOrEqual(median(plainSteps) * 1.25 + 0.3);
    expect(wrap).toBeLessThanOrEqual(Math.max(quantile(whole, 0.95), 0.5) * 1.5);
  }, 300_000);
});

describe('what a recording is refused for', () => {
  it('names each problem: too short, not a video, no face', async () => {
    expect(await refusal(await filmPhoto('portrait.jpg', 4, 'short.mp4'))).toBe('video_too_short');
    const text = join(root, 'notes.mp4');
    writeFileSync(text, 'these are not the frames you are looking for\n'.repeat(200));
    expect(await refusal(text)).toBe('video_invalid');
    const blank = join(root, 'blank.mp4');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=0x406080:s=320x240:r=30', '-t', '11', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', blank], {
      budgetSeconds: 60,
    });
    expect(await refusal(blank)).toBe('no_face_found');
  }, 600_000);

  it('refuses a recording larger than the limit before reading it', async () => {
    const path = join(root, 'portrait.mp4');
    await expect(buildFootageLook(path, 301 * 1024 * 1024, root)).rejects.toMatchObject({ code: 'video_too_large' });
    expect(readFileSync(path).length).toBeGreaterThan(0);
  });
});

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] ?? 0;
}

/** Mean absolute RGB difference of two RGBA frames (`width` wide) over a box. */
function meanDiff(a: Buffer, b: Buffer, width: number, box: { x: number; y: number; w: number; h: number }) {
  let sum = 0;
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++) {
      const p = (y * width + x) * 4;
      sum += Math.abs(a[p]! - b[p]!) + Math.abs(a[p + 1]! - b[p + 1]!) + Math.abs(a[p + 2]! - b[p + 2]!);
    }
  return sum / (box.w * box.h * 3);
}

/** The lower face's box on the rig's frames (the track's frame `index`, scaled). */
function mouthBoxOf(manifest: BotManifest, scale: number, index: number, prepared: PreparedLook) {
  const track = JSON.parse(prepared.files.get(manifest.footage!.track)!.toString()) as number[][];
  const f = track[index]!;
  // Landmark k is at 2k, 2k + 1: the jaw's points 2 and 14 (the cheeks), the nose's base 33, the chin 8.
  const x0 = Math.round(f[4]! * scale);
  const x1 = Math.round(f[28]! * scale);
  const y0 = Math.round(f[67]! * scale);
  const y1 = Math.round((f[17]! + 10) * scale);
  return { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
}
