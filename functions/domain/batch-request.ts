/**
 * The request side of a batch (POST /v1/templates/{uid}/batches): its own fields, every row checked as its own
 * create request would be, and what a dry run shows. The batch itself and its worker are batches.ts.
 */
import type { BatchRow } from './batch-rows.ts';
import type { BatchInput } from './batches.ts';
import { type CreateVideoCommand, parseCreateVideo } from './create-request.ts';
import { ConflictError, type FieldProblem, InvalidRequestError } from './errors.ts';
import { limits } from './limits.ts';
import { claimRowRecordings } from './recordings.ts';
import { fieldsFromTemplate, type TemplateRecord } from './templates.ts';
import type { ClaimDeps } from './uploads.ts';
import { type CreateVideoDeps, checkClips } from './videos.ts';

export interface StartBatchCommand {
  webhookUrl: string;
  notifyEach: boolean;
  rows: BatchRow[];
}

const BATCH_FIELDS = new Set(['webhook', 'notify_each', 'dry_run', 'rows']);

/** A boolean field as JSON (true) or a form (the text "true") sends it; anything else is named. */
function flag(body: Record<string, unknown>, key: string, problems: FieldProblem[], emptyIsFalse = true): boolean {
  const raw = body[key];
  if (raw !== undefined && (raw !== '' || !emptyIsFalse) && typeof raw !== 'boolean' && raw !== 'true' && raw !== 'false')
    problems.push({ path: key, message: 'must be true or false' });
  return raw === true || raw === 'true';
}

/** The batch request's own fields (the rows are read by readBatchRows); unknown fields are named. */
export function parseBatchFields(body: Record<string, unknown>): { webhook: unknown; notifyEach: boolean; dryRun: boolean } {
  const problems: FieldProblem[] = Object.keys(body)
    .filter((key) => !BATCH_FIELDS.has(key))
    .map((path) => ({ path, message: 'is not a field of a batch (webhook, notify_each, dry_run, rows)' }));
  const notifyEach = flag(body, 'notify_each', problems);
  // An empty dry_run is refused rather than read as false: a client that meant to check must never send a batch.
  const dryRun = flag(body, 'dry_run', problems, false);
  if (problems.length) throw new InvalidRequestError(problems);
  return { webhook: body.webhook, notifyEach, dryRun };
}

/**
 * What a dry run shows of a batch whose rows all passed `checkRows`: how many videos it would make, and its first
 * row's clips as that video would be asked for (every placeholder filled), so a person sees one before sending.
 */
export function previewBatch(template: BatchInput['template'], rows: BatchRow[]) {
  const first = rows[0]!;
  const fields = fieldsFromTemplate(template as TemplateRecord, first.values, 'rows[0]');
  return { row: 0, variables: first.values, clips: fields.clips as Record<string, unknown>[] };
}

/** The create request of one row: the template filled with its values, and the batch's webhook. */
export function rowCommand(template: BatchInput['template'], values: Record<string, unknown>, row: number, webhook: unknown): CreateVideoCommand {
  const fields = fieldsFromTemplate(template as TemplateRecord, values, `rows[${row}]`);
  return parseCreateVideo({ ...fields, webhook });
}

/** A dry run's check of the uploads the rows name (recordings.ts claimRowRecordings), taking none. */
export async function checkRowRecordings(template: BatchInput['template'], rows: BatchRow[], webhookUrl: string, tenantId: string, deps: ClaimDeps) {
  const commands = rows.map((row, i) => rowCommand(template, row.values, i, webhookUrl));
  await claimRowRecordings(commands, tenantId, 'dry-run', deps, true);
}

type ClipDeps = Pick<CreateVideoDeps, 'bots' | 'accountBots' | 'clips' | 'voices' | 'accounts'>;

/** The lookups of a batch's rows, each asked once: 1000 rows of one bot read the bot once. */
function memoised(deps: ClipDeps): ClipDeps {
  const cache = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>) => {
    if (!cache.has(key)) cache.set(key, load());
    return cache.get(key) as Promise<T>;
  };
  return {
    voices: deps.voices,
    accounts: { get: (tenantId) => once(`account:${tenantId}`, () => deps.accounts.get(tenantId)) },
    bots: { list: () => deps.bots.list(), get: (uid) => once(`bot:${uid}`, () => deps.bots.get(uid)) },
    accountBots: { get: (tenantId, uid) => once(`own:${tenantId}:${uid}`, () => deps.accountBots.get(tenantId, uid)) },
    // The library itself with `get` memoised (a spread would drop the methods of its class).
    clips: Object.assign(Object.create(deps.clips), {
      get: (tenantId: string, uid: string) => once(`clip:${tenantId}:${uid}`, () => deps.clips.get(tenantId, uid)),
    }),
  };
}

/**
 * Every row checked as its own create request: its values (unknown, missing, too long), the filled request (a
 * `background` still a URL, a text still at most 2000 characters), its bots, voices and kept clips (ready now), as
 * the caller's account makes it (a test account's at the test resolution, with the watermark). `refuse` adds the caller's checks of a command (the address guard's, in the API). Problems are named by row
 * (`rows[17].first_name`); the webhook's once. Throws InvalidRequestError with the first limits.maxBatchProblems.
 */
export async function checkRows(
  template: BatchInput['template'],
  command: Omit<StartBatchCommand, 'webhookUrl'> & { webhook: unknown },
  tenantId: string,
  deps: ClipDeps,
  refuse: (command: CreateVideoCommand) => FieldProblem[] = () => [],
): Promise<string> {
  const problems: FieldProblem[] = [];
  const lookups = memoised(deps);
  let webhookUrl: string | undefined;
  let webhookProblem = false;
  // Problems are kept up to the answer's limit: one row may name thousands (never spread into push).
  const add = (found: FieldProblem[]) => {
    for (const problem of found) if (problems.length < limits.maxBatchProblems) problems.push(problem);
  };
  for (const [row, { values, line }] of command.rows.entries()) {
    if (problems.length >= limits.maxBatchProblems) break;
    const where = (problem: FieldProblem): FieldProblem => ({
      path: problem.path.startsWith(`rows[${row}]`) ? problem.path : `rows[${row}].${problem.path}`,
      message: line === undefined ? problem.message : `${problem.message} (CSV line ${line})`,
    });
    try {
      const parsed = rowCommand(template, values, row, command.webhook);
      webhookUrl = parsed.webhookUrl;
      const refused = refuse(parsed);
      const webhook = refused.filter((p) => p.path === 'webhook');
      if (webhook.length && !webhookProblem) add(webhook);
      webhookProblem ||= webhook.length > 0;
      add(refused.filter((p) => p.path !== 'webhook').map(where));
      await checkClips(parsed, tenantId, lookups, 'ready');
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        const [webhook, rest] = [error.problems.filter((p) => p.path === 'webhook'), error.problems.filter((p) => p.path !== 'webhook')];
        if (webhook.length && !webhookProblem) add(webhook);
        webhookProblem ||= webhook.length > 0;
        add(rest.map(where));
      } else if (error instanceof ConflictError) problems.push(where({ path: 'clips', message: error.message }));
      else throw error;
    }
  }
  if (problems.length || !webhookUrl) throw new InvalidRequestError(problems.slice(0, limits.maxBatchProblems));
  return webhookUrl;
}
