/**
 * The README and docs/api.md run as written. Every ```bash block of README.md is pasted into one bash session
 * (variables and functions carry from block to block, as in a reader's terminal) in a folder that has the
 * repository's examples/, functions/ and node_modules/, against `npm start` on a temporary data dir. A block made only of
 * `npm ci` and `npm start` lines is the reader's first terminal: `npm ci` is this checkout's install, and each
 * `npm start` (re)starts the runtime with the variables the line gives, on the same data dir and port.
 *
 * docs/api.md's blocks are then pasted into a second terminal, in a folder of their own, against the same runtime.
 *
 * What a reader types differently from the page, and only that: the key `npm start` printed for `vb_...` (and its
 * webhook secret for `whsec_...`), free ports for 3000 and 9999 (another runtime or test may hold those), and the
 * words of their own recording for READERS_WORDS (their `me.mp4` and `me.wav` put in the folder). Each must occur
 * on the page.
 * `VIDBOT_README_KEEP=1` keeps the session's folder (its videos) and prints where it is; `VIDBOT_README_PICTURE=1`
 * writes docs/scene.png, the scene's frames at 2 s (the lower third) and 5.5 s (gone) side by side.
 */
import { copyFileSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { probe } from '#media/probe';
import { librivoxInstalled, librivoxSentences } from '../support/librivox.ts';
import { bashBlocks, commandOf, isServerBlock, pasteChecked, ReaderRuntime, ReaderShell, SERVER_LINE } from '../support/reader-session.ts';
import { freePort } from '../support/reliability.ts';
import { frameRgb } from '../support/render-media.ts';

/** What the README's "Your own presenter and voice" asks the reader to put in place of their own words. */
const READERS_WORDS = 'The words you say in me.wav, as you say them.';

/**
 * The reader's own files that section names, in `dir`: `me.mp4`, a recording of a real person
 * (test/fixtures/footage), and `me.wav`, a real reader's voice (a LibriVox sentence, which CI installs). Returns the
 * words that voice says, which the reader types for READERS_WORDS. Outside CI without LibriVox, `me.wav` is
 * espeak-ng saying READERS_WORDS themselves.
 */
async function readersOwnFiles(dir: string): Promise<string> {
  copyFileSync(resolve(REPO_ROOT, 'test/fixtures/footage/person.mp4'), join(dir, 'me.mp4'));
  if (!librivoxInstalled() && process.env.CI) throw new Error('CI must install pocketsphinx-testdata (.ci/run)');
  const sentence = librivoxSentences()[0];
  if (sentence) {
    copyFileSync(sentence.path, join(dir, 'me.wav'));
    return sentence.text;
  }
  const speech = await new EspeakSpeechEngine().synthesize(speechScriptOf(READERS_WORDS), { id: 'espeak:en-us+m3' }, dir);
  copyFileSync(speech.wavPath, join(dir, 'me.wav'));
  return READERS_WORDS;
}

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

/** What a reader's folder (the repository's) has that the pages name: examples/, functions/, node_modules/. */
function asRepositoryFolder(dir: string) {
  mkdirSync(dir, { recursive: true });
  symlinkSync(resolve(REPO_ROOT, 'examples'), join(dir, 'examples'));
  symlinkSync(resolve(REPO_ROOT, 'functions'), join(dir, 'functions'));
  // `npx vidbot` runs the checkout's CLI (node_modules/.bin), as in the repository's folder.
  symlinkSync(resolve(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
}

describe('the README and docs/api.md, pasted block by block', () => {
  let workDir: string;
  let runtime: ReaderRuntime;
  let shell: ReaderShell;
  let port: number;
  let filesPort: number;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'vidbot-readme-'));
    asRepositoryFolder(workDir);
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
    const blocks = bashBlocks('README.md');
    const pages = blocks.map((b) => b.text).join('\n');
    for (const typed of ['KEY=vb_...', '127.0.0.1:3000', '9999']) expect(pages, `the pages name ${typed}`).toContain(typed);
    expect(pages, "the page names the reader's own words").toContain(READERS_WORDS);
    const readersWords = await readersOwnFiles(workDir);
    const settledLines: string[] = [];
    const printed: string[] = [];
    for (const [index, block] of blocks.entries()) {
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
        .replaceAll('9999', String(filesPort))
        .replaceAll(READERS_WORDS, readersWords);
      const stdout = await pasteChecked(shell, block, text, workDir, index);
      printed.push(stdout);
      // `settled` prints `v1/…: <status>`, after an answer that may end without a newline.
      settledLines.push(...[...stdout.matchAll(/(v1\/[^\s"]+): (\w+)$/gm)].map((m) => `${m[1]}: ${m[2]}`));
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
    // The video bot made from the reader's recording, and the clip that speaks the reader's own voice.
    expect(settledLines).toContain('v1/bot/myself: ready');
    // The recording never rounds the lips (docs/video-bots.md, "Measured"): the bot says so, and what to record.
    expect(printed.join('\n')).toMatch(/^no_rounded_lips: the lips are never rounded in the recording/m);
    expect(await picture('me-speaks.mp4')).toMatchObject({ width: 1280, height: 720 });
    const ownVoice = await picture('my-voice.mp4');
    expect(ownVoice).toMatchObject({ width: 1280, height: 720 });
    expect(Number(ownVoice.duration)).toBeGreaterThan(3);
    if (process.env.VIDBOT_README_PICTURE === '1') await scenePicture(join(workDir, 'scene.mp4'), { width: 720, height: 1280 });
  }, 1_500_000);

  it("docs/api.md's blocks work in a second terminal, and what they make is there", async () => {
    if (!runtime.running) await runtime.start({});
    const dir = join(workDir, 'api');
    asRepositoryFolder(dir);
    const terminal = new ReaderShell(dir);
    try {
      const blocks = bashBlocks('docs/api.md');
      const pages = blocks.map((b) => b.text).join('\n');
      for (const typed of ['KEY=vb_...', 'SECRET=whsec_...', '127.0.0.1:3000']) expect(pages, `the page names ${typed}`).toContain(typed);
      let stdout = '';
      for (const [index, block] of blocks.entries()) {
        const text = block.text
          .replaceAll('KEY=vb_...', `KEY=${runtime.apiKey}`)
          .replaceAll('SECRET=whsec_...', `SECRET=${runtime.webhookSecret}`)
          .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
        stdout += await pasteChecked(terminal, block, text, workDir, index);
      }
      expect(stdout).toContain('"signature_verified":true');
      expect(stdout).toMatch(/WEBVTT[\s\S]*These words appear on screen/);
      expect(await probe(join(dir, 'video.mp4'), 'mov').then((p) => p.streams.find((s) => s.codec_type === 'video'))).toMatchObject({ width: 1280 });
      // The upload the recipe made can be named by a voice-only video, which the service accepts only for an uploaded file.
      const variables = await pasteChecked(terminal, { page: 'docs/api.md', line: 0, text: '' }, 'echo "$UPLOAD"', workDir, blocks.length);
      const upload = JSON.parse(variables.trim()) as { upload_id: string; kind: string; size: number };
      expect(upload).toMatchObject({ kind: 'audio', size: statSync(join(dir, 'me.wav')).size });
      const created = await fetch(`http://127.0.0.1:${port}/v1/bot`, {
        method: 'POST',
        headers: { authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          webhook: 'https://hooks.example.com/v',
          create_video: false,
          clips: [{ bot_uid: 'bot_ava', audio_upload: upload.upload_id }],
        }),
      });
      expect(created.status, await created.clone().text()).toBe(202);
    } finally {
      terminal.close();
    }
  }, 600_000);
});
