/**
 * `vidbot …` (`npx vidbot` from the package, `npm run vidbot -- …` in the repository): the API from a terminal, on
 * the SDK. Every command takes --json; the exit code says what failed (output.ts EXIT).
 */
import { parseArgs } from 'node:util';
import { Vidbot } from '../vidbot.ts';
import { loadCredentials, saveCredentials } from './config.ts';
import { EXIT, fail, type Io, print, UsageError } from './output.ts';
import {
  batchSendCommand,
  botCreateCommand,
  botsCommand,
  inboxCommand,
  templatePutCommand,
  voicesCommand,
  webhookVerifyCommand,
} from './resources.ts';
import { createCommand, downloadCommand, videoCommand } from './videos.ts';

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'base-url': { type: 'string' },
  key: { type: 'string' },
  bot: { type: 'string' },
  text: { type: 'string' },
  voice: { type: 'string' },
  position: { type: 'string' },
  size: { type: 'string' },
  aspect: { type: 'string' },
  resolution: { type: 'string' },
  captions: { type: 'string' },
  webhook: { type: 'string' },
  wait: { type: 'boolean' },
  out: { type: 'string' },
  timeout: { type: 'string' },
  language: { type: 'string' },
  name: { type: 'string' },
  photo: { type: 'string' },
  video: { type: 'string' },
  consent: { type: 'boolean' },
  uid: { type: 'string' },
  'dry-run': { type: 'boolean' },
  secret: { type: 'string' },
  id: { type: 'string' },
  timestamp: { type: 'string' },
  signature: { type: 'string' },
} as const;

const USAGE = `usage: vidbot COMMAND [options] [--json]

  login --base-url URL [--key -]        keep the address and key (a file only you can read); checks the key first;
                                        the key from VIDBOT_API_KEY, or read from stdin with --key -
  bots                                  the bots you may name (built in and yours)
  voices [--language es]                the voices, or those of a language
  create --bot UID --text "…" [--voice V --position P --size S --aspect 9:16 --resolution 1080p
         --captions burn --webhook URL] [--wait [--out video.mp4] [--timeout SECONDS]]
  video ID                              a video's status, clips and download link
  download ID [--out file]              save a completed video (or voice)
  bot create UID --name N (--photo me.jpg | --video me.mp4 --consent) [--voice V --webhook URL --wait]
  template put FILE [--uid UID]         save a template from a JSON file (its uid: the file's name)
  batch send TEMPLATE rows.csv [--webhook URL --dry-run --wait]
  inbox                                 the signed events your inbox received
  webhook verify BODY_FILE --id … --timestamp … --signature … --secret whsec_…
                                        check a delivery your own receiver got (BODY_FILE - reads stdin)

Without --webhook, videos and batches report to your inbox. VIDBOT_BASE_URL and VIDBOT_API_KEY win over login.
Exit codes: 0 done, 2 usage, 3 key refused, 4 request refused, 5 service busy or unreachable, 6 video or bot
failed, 7 --wait timed out, 8 signature invalid, 9 not offered by this service, 1 anything else.`;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** The key piped in (`--key -`): kept out of the shell's history and of the process list. */
async function keyFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function login(io: Io, values: Values) {
  const baseUrl = values['base-url'] ?? process.env.VIDBOT_BASE_URL;
  const apiKey = values.key === '-' ? await keyFromStdin() : (values.key ?? process.env.VIDBOT_API_KEY);
  if (!baseUrl || !apiKey)
    throw new UsageError('login needs --base-url URL and the key: in VIDBOT_API_KEY, or piped in with --key - (or VIDBOT_BASE_URL for the address)');
  // A key typed on the command line stays in the shell's history: say so, once.
  if (values.key !== undefined && values.key !== '-')
    io.err('note: a key given as --key stays in your shell history; next time use VIDBOT_API_KEY or pipe it in with --key -');
  const account = (await new Vidbot({ baseUrl, apiKey }).account()) as { account_id?: string; name?: string };
  const file = saveCredentials({ baseUrl, apiKey });
  print(
    io,
    { base_url: baseUrl, account: account.account_id ?? null, file },
    () => `logged in to ${baseUrl} as ${account.name ?? account.account_id}; saved in ${file}`,
  );
}

/** Runs one command; returns the exit code. */
async function run(io: Io, command: string[], values: Values): Promise<number> {
  const [name, sub, ...rest] = command;
  if (name === 'login') return login(io, values).then(() => EXIT.ok);
  if (name === 'webhook' && sub === 'verify') return webhookVerifyCommand(io, rest[0], values).then(() => EXIT.ok);
  const vidbot = new Vidbot(loadCredentials());
  const result = await dispatch(vidbot, io, name, sub, rest, values);
  return result === 'failed' ? EXIT.failed : EXIT.ok;
}

async function dispatch(vidbot: Vidbot, io: Io, name: string | undefined, sub: string | undefined, rest: string[], values: Values) {
  switch (`${name} ${name === 'bot' || name === 'template' || name === 'batch' ? sub : ''}`.trim()) {
    case 'bots':
      return botsCommand(vidbot, io);
    case 'voices':
      return voicesCommand(vidbot, io, values.language);
    case 'create':
      return createCommand(vidbot, io, values);
    case 'video':
      return videoCommand(vidbot, io, sub);
    case 'download':
      return downloadCommand(vidbot, io, sub, values.out);
    case 'bot create':
      return botCreateCommand(vidbot, io, rest[0], values);
    case 'template put':
      return templatePutCommand(vidbot, io, rest[0], values.uid);
    case 'batch send':
      return batchSendCommand(vidbot, io, rest[0], rest[1], values);
    case 'inbox':
      return inboxCommand(vidbot, io);
    default:
      throw new UsageError(`unknown command "${[name, sub].filter(Boolean).join(' ')}"\n${USAGE}`);
  }
}

export async function main(argv: string[], io?: Partial<Io>): Promise<number> {
  const streams: Io = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    json: argv.includes('--json'),
    tty: Boolean(process.stderr.isTTY),
    ...io,
  };
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (values.help || positionals.length === 0) {
      streams.out(USAGE);
      return positionals.length === 0 && !values.help ? EXIT.usage : EXIT.ok;
    }
    return await run(streams, positionals, values as Values);
  } catch (error) {
    const usage = error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
    return fail(streams, usage ? new UsageError(`${error.message}\n${USAGE}`) : error);
  }
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2)).then((code) => (process.exitCode = code));
