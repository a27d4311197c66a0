/**
 * `npm run bots:mouths [-- <photo>]`: docs/bot-mouths.png, a contact sheet of mouth levels 0..4 and closed eyes.
 * First row: a bot prepared from a photo (default: the test portrait, test/fixtures/prepare/portrait.jpg);
 * then a drawn bot made from two of ava's frames (mouth closed, mouth open); then the built-in bots.
 * Each tile is the look's head box on its card, exactly the layers the render engine draws.
 * Also docs/mouth-shapes.png: every mouth frame of every built-in look (mouthFramesOf: m0..m4, then the shapes'
 * r1, r2, w1, w2, fv), close up on the lower face, one look a row.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { type BotManifest, mouthFramesOf } from '#domain/look';
import { buildDrawnLook } from '../../../functions/prepare/drawn-look.ts';
import { buildPhotoLook } from '../../../functions/prepare/photo-look.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../../..');
const TILE = 180;
const KEYS = ['m0-eo', 'm1-eo', 'm2-eo', 'm3-eo', 'm4-eo', 'm0-ec'];

/** A look's canvas with one head frame, as the compositor layers it (panel, back, body, head). */
async function canvas(dir: string, m: BotManifest, key: string): Promise<Buffer> {
  return sharp(join(dir, m.panel.file))
    .composite([
      { input: join(dir, m.back), left: 0, top: 0 },
      { input: join(dir, m.body), left: 0, top: 0 },
      { input: join(dir, m.head.frames[key]!), left: m.head.x * (m.density ?? 1), top: m.head.y * (m.density ?? 1) },
    ])
    .png()
    .toBuffer();
}

/** One row: the face region of each frame, TILE px square. */
async function row(dir: string): Promise<Buffer[]> {
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
  // The same square of canvas for every look: 300 px around the face, centred a little above the mouth.
  const side = 300;
  const left = Math.max(0, Math.min(m.width - side, m.mouth.x - side / 2));
  const top = Math.max(0, Math.min(m.height - side, m.mouth.y - 70 - side / 2));
  // In the layers' pixels (a built-in look's are drawn at twice its canvas).
  const d = m.density ?? 1;
  return Promise.all(
    KEYS.map(async (key) =>
      sharp(await canvas(dir, m, key))
        .extract({ left: Math.round(left * d), top: Math.round(top * d), width: Math.round(side * d), height: Math.round(side * d) })
        .resize(TILE, TILE)
        .png()
        .toBuffer(),
    ),
  );
}

/** What each mouth frame is for, under its column of docs/mouth-shapes.png. */
const SOUNDS: Record<string, string> = {
  m0: 'm0 closed: m b p',
  m1: 'm1',
  m2: 'm2',
  m3: 'm3',
  m4: 'm4 open: a',
  r1: 'r1 round: oo w',
  r2: 'r2 round: o aw',
  w1: 'w1 wide: ee',
  w2: 'w2 wide: eh a',
  fv: 'fv: f v',
};

/** docs/mouth-shapes.png: the lower face (nose to chin) of every mouth frame of every built-in look, eyes open. */
async function shapesSheet(): Promise<void> {
  const looks = ['ava', 'leo', 'maya', 'otto'].map((look) => join(repo, 'functions/render/bots', look));
  const first = JSON.parse(readFileSync(join(looks[0]!, 'manifest.json'), 'utf8')) as BotManifest;
  const keys = mouthFramesOf(first);
  const [tileW, tileH, label] = [200, 160, 26];
  // 100 x 80 canvas units around the mouth, from under the nose to the chin.
  const [sideW, sideH] = [100, 80];
  const rows = await Promise.all(
    looks.map(async (dir) => {
      const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
      const d = m.density ?? 1;
      const region = {
        left: Math.round((m.mouth.x - sideW / 2) * d),
        top: Math.round((m.mouth.y - sideH * 0.4) * d),
        width: sideW * d,
        height: sideH * d,
      };
      return Promise.all(
        keys.map(async (key) =>
          sharp(await canvas(dir, m, `${key}-eo`))
            .extract(region)
            .resize(tileW, tileH)
            .png()
            .toBuffer(),
        ),
      );
    }),
  );
  const labels = keys
    .map(
      (key, c) =>
        `<text x="${c * tileW + tileW / 2}" y="18" text-anchor="middle" font-family="DejaVu Sans" font-size="14" fill="#e8edf3">${SOUNDS[key] ?? key}</text>`,
    )
    .join('');
  const out = join(repo, 'docs/mouth-shapes.png');
  await sharp({ create: { width: tileW * keys.length, height: label + tileH * rows.length, channels: 3, background: '#101820' } })
    .composite([
      {
        input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${tileW * keys.length}" height="${label}">${labels}</svg>`),
        left: 0,
        top: 0,
      },
      ...rows.flatMap((tiles, r) => tiles.map((input, c) => ({ input, left: c * tileW, top: label + r * tileH }))),
    ])
    .png({ compressionLevel: 9 })
    .toFile(out);
  console.log(`wrote ${out}: rows ava, leo, maya, otto; columns ${keys.join(', ')}`);
}

async function main(): Promise<void> {
  await shapesSheet();
  const photo = process.argv[2] ?? join(repo, 'test/fixtures/prepare/portrait.jpg');
  const work = mkdtempSync(join(tmpdir(), 'vidbot-mouths-'));
  try {
    const looks: string[] = [];
    const save = (name: string, files: Map<string, Buffer>) => {
      const dir = mkdtempSync(join(work, `${name}-`));
      for (const [file, bytes] of files) writeFileSync(join(dir, file), bytes);
      looks.push(dir);
    };
    const started = performance.now();
    save('photo', (await buildPhotoLook(readFileSync(photo))).files);
    console.log(`photo look prepared in ${Math.round(performance.now() - started)} ms`);
    const ava = join(repo, 'functions/render/bots/ava');
    const am = JSON.parse(readFileSync(join(ava, 'manifest.json'), 'utf8')) as BotManifest;
    const drawing = async (key: string) =>
      sharp(join(ava, am.back))
        .composite([
          { input: join(ava, am.body) },
          { input: join(ava, am.head.frames[key]!), left: am.head.x * (am.density ?? 1), top: am.head.y * (am.density ?? 1) },
        ])
        .png()
        .toBuffer();
    save(
      'drawn',
      (await buildDrawnLook({ mouthClosed: await drawing('m0-eo'), mouthOpen: await drawing('m4-eo'), eyesClosed: await drawing('m0-ec') })).files,
    );
    for (const look of ['ava', 'leo', 'maya', 'otto']) looks.push(join(repo, 'functions/render/bots', look));
    const rows = await Promise.all(looks.map(row));
    const out = join(repo, 'docs/bot-mouths.png');
    await sharp({ create: { width: TILE * KEYS.length, height: TILE * rows.length, channels: 3, background: '#101820' } })
      .composite(rows.flatMap((tiles, r) => tiles.map((input, c) => ({ input, left: c * TILE, top: r * TILE }))))
      .png({ compressionLevel: 9 })
      .toFile(out);
    console.log(`wrote ${out}: rows photo, drawn (from ava's frames), ava, leo, maya, otto; columns mouth 0..4, eyes closed`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
