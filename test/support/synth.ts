import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { BUILT_IN_BOTS } from '#domain/bot';
import { VidbotStack, type VidbotStackProps } from '#infra/stack.ts';
import { type FunctionName, functions } from '#infra/wiring.ts';

const projectRoot = resolve(import.meta.dirname, '..', '..');
const STUB_ENTRY = 'test/fixtures/infra/stub-handler.ts';

/** The context cdk.json gives the real app (feature flags), so tests synthesise what `cdk synth` would. */
function cdkContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')).context;
}

/**
 * Handler entries of the wiring that do not exist yet (other work in progress) are replaced by a stub, so the
 * template can be checked; once they all exist the tests bundle the real ones.
 */
function entriesForTest(): { entries: Partial<Record<FunctionName, string>>; stubbed: FunctionName[] } {
  const stubbed = (Object.keys(functions) as FunctionName[]).filter(
    (name) => !('image' in functions[name]) && !existsSync(join(projectRoot, functions[name].entry)),
  );
  if (stubbed.length > 0) console.warn(`infra tests: stubbing missing handler entries: ${stubbed.join(', ')}`);
  return { entries: Object.fromEntries(stubbed.map((name) => [name, STUB_ENTRY])), stubbed };
}

/**
 * Stand-ins for the build outputs the stack stages at synth: a render image directory with a Dockerfile (only
 * staged, never built, at synth) and a small media layer (so tests do not copy 80 MB of ffmpeg each time).
 */
function fakeBuildOutputs(): Pick<VidbotStackProps, 'renderImageDirectory' | 'prepareImageDirectory' | 'layerDirectories' | 'botArtworkDirectory'> {
  const dir = mkdtempSync(join(tmpdir(), 'vidbot-infra-test-'));
  const image = join(dir, 'render-image');
  mkdirSync(image);
  writeFileSync(join(image, 'Dockerfile'), 'FROM public.ecr.aws/lambda/nodejs:22\nCMD ["index.handler"]\n');
  const prepareImage = join(dir, 'prepare-image');
  mkdirSync(prepareImage);
  writeFileSync(join(prepareImage, 'Dockerfile'), 'FROM public.ecr.aws/lambda/nodejs:22\nCMD ["index.handler"]\n');
  const media = join(dir, 'media', 'bin');
  mkdirSync(media, { recursive: true });
  writeFileSync(join(media, 'ffmpeg'), 'fake');
  for (const bot of BUILT_IN_BOTS) {
    mkdirSync(join(dir, 'bots', bot.look), { recursive: true });
    writeFileSync(join(dir, 'bots', bot.look, 'preview.png'), 'not really a png');
  }
  return {
    renderImageDirectory: image,
    prepareImageDirectory: prepareImage,
    layerDirectories: { media: join(dir, 'media') },
    botArtworkDirectory: join(dir, 'bots'),
  };
}

/**
 * The template only: CDK's own switch skips esbuild for every function (about 1.5 s each, every synth), as `cdk
 * synth --exclusively` does for stacks it does not deploy. The bundles themselves are built and run on Node 22 x64
 * and arm64 by `npm run check:lambda`.
 */
const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

export function synthStack(props: Partial<VidbotStackProps> = {}): { app: App; stack: VidbotStack; stubbed: FunctionName[] } {
  const app = new App({ context: { ...cdkContext(), ...SKIP_BUNDLING }, outdir: mkdtempSync(join(tmpdir(), 'vidbot-cdk-out-')) });
  const { entries, stubbed } = entriesForTest();
  const stack = new VidbotStack(app, 'VidbotStack', {
    projectRoot,
    entries,
    ...fakeBuildOutputs(),
    ...props,
  });
  return { app, stack, stubbed };
}
