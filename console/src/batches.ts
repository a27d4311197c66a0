/**
 * Templates and batches in the console: save the composer's design as a template, check a CSV of rows against it
 * (a dry run: every row checked by the API as the batch would be, the first one shown filled in), send the batch,
 * and follow it row by row. Everything here comes from the public API, as in state.ts.
 */
import { computed, signal } from '@preact/signals';
import { parsePlaceholders } from '#domain/placeholders';
import { ApiRequestError, type Batch, type BatchPreview, type BatchRowVideo, isBatchSettled, type Problem, type Template } from './api.ts';
import { requestBody } from './request.ts';
import { call, composer, inboxUrl, notice, report } from './state.ts';

export const templates = signal<Template[]>([]);
export const batches = signal<Batch[]>([]);
/** What the detail pane shows: a template (to send a batch of it) or a batch (its progress). */
export const selection = signal<{ kind: 'template'; uid: string } | { kind: 'batch'; id: string } | null>(null);

export async function loadTemplates() {
  try {
    const [t, b] = await Promise.all([
      call<{ templates: Template[] }>('GET', 'v1/templates?limit=100'),
      call<{ batches: Batch[] }>('GET', 'v1/batches?limit=20'),
    ]);
    templates.value = t.templates;
    batches.value = b.batches;
  } catch (error) {
    report(error);
  }
}

export const selectedTemplate = computed(() => {
  const chosen = selection.value;
  return chosen?.kind === 'template' ? (templates.value.find((t) => t.uid === chosen.uid) ?? null) : null;
});

// --- Saving the composer's design -------------------------------------------------------------------------------

export const templateDraft = signal({ uid: '', name: '' });
export const templateProblems = signal<Problem[]>([]);
export const templateError = signal('');
export const savingTemplate = signal(false);

/** The composer's design as a template body: the create request without its webhook, and a name. */
const templateBody = () => {
  const { webhook: _webhook, ...design } = requestBody(composer.value);
  return { name: templateDraft.value.name.trim(), ...design };
};

/**
 * The variables the composer's clips name, read with the API's own placeholder parser (the API checks again when
 * the template is saved): what a CSV's header will need.
 */
export const composerVariables = computed(() => {
  const names = new Map<string, string | undefined>();
  const problems: string[] = [];
  composer.value.clips.forEach((clip, index) => {
    for (const [field, value] of [
      ['text', clip.text],
      ['clip_name', clip.name],
      ['background', clip.background],
    ] as const) {
      const parsed = parsePlaceholders(value);
      if ('problem' in parsed) problems.push(`Clip ${index + 1}'s ${field} ${parsed.problem}.`);
      else for (const part of parsed.parts) if ('variable' in part && !names.has(part.variable)) names.set(part.variable, part.default);
    }
  });
  return { names: [...names.entries()].map(([name, fallback]) => ({ name, fallback })), problems };
});

export async function saveTemplate() {
  const uid = templateDraft.value.uid.trim();
  templateProblems.value = [];
  templateError.value = '';
  savingTemplate.value = true;
  try {
    const saved = await call<Template>('PUT', `v1/templates/${encodeURIComponent(uid)}`, templateBody());
    notice.value = { kind: 'info', text: `Template ${saved.uid} saved with ${saved.variables.length} variable(s).` };
    await loadTemplates();
    selectTemplate(saved.uid);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status !== 401) {
      templateProblems.value = error.details;
      templateError.value = error.message;
    } else report(error);
  } finally {
    savingTemplate.value = false;
  }
}

// --- Sending a batch ------------------------------------------------------------------------------------------

export const batchDraft = signal<{ webhook: string; notifyEach: boolean; file: File | null }>({ webhook: '', notifyEach: false, file: null });
/** The dry run of the chosen file: its preview, or the API's problems (by row and field). */
export const batchPreview = signal<BatchPreview | null>(null);
export const batchProblems = signal<Problem[]>([]);
export const batchError = signal('');
export const checkingRows = signal(false);
export const sendingBatch = signal(false);

export const batchProblemsAt = (path: string) => batchProblems.value.filter((p) => p.path === path);

/**
 * A problem's place as a person reads it: the API names rows from 0 (`rows[1].first_name`), the page from 1, as
 * the row cards do ("Row 2: first_name"; a CSV's problems also name their line).
 */
export const problemPlace = (path: string) =>
  path.replace(/^rows\[(\d+)\]\.?/, (_, row: string) => `Row ${Number(row) + 1}${path.includes('].') ? ': ' : ''}`);

export function selectTemplate(uid: string) {
  selection.value = { kind: 'template', uid };
  openedBatch.value = null;
  batchDraft.value = { webhook: batchDraft.value.webhook || inboxUrl.value, notifyEach: false, file: null };
  batchPreview.value = null;
  batchProblems.value = [];
  batchError.value = '';
}

const batchForm = (dryRun: boolean) => {
  const form = new FormData();
  form.set('webhook', batchDraft.value.webhook.trim());
  if (batchDraft.value.notifyEach) form.set('notify_each', 'true');
  if (dryRun) form.set('dry_run', 'true');
  if (batchDraft.value.file) form.set('rows', batchDraft.value.file, batchDraft.value.file.name);
  return form;
};

/** Sends the batch with dry_run, or (`dryRun` false) for real; the answer's problems are kept for the form. */
async function postBatch<T>(uid: string, dryRun: boolean): Promise<T | null> {
  batchProblems.value = [];
  batchError.value = '';
  try {
    return await call<T>('POST', `v1/templates/${encodeURIComponent(uid)}/batches`, batchForm(dryRun));
  } catch (error) {
    if (error instanceof ApiRequestError && error.status !== 401) {
      batchProblems.value = error.details;
      batchError.value = error.message;
    } else report(error);
    return null;
  }
}

/** Checks the chosen file's rows (nothing is made) and shows the first row filled in. */
export async function checkBatchRows(uid: string) {
  batchPreview.value = null;
  if (!batchDraft.value.file) return;
  checkingRows.value = true;
  batchPreview.value = await postBatch<BatchPreview>(uid, true);
  checkingRows.value = false;
}

export async function sendBatch(uid: string) {
  sendingBatch.value = true;
  const created = await postBatch<{ batch_id: string; rows: number }>(uid, false);
  sendingBatch.value = false;
  if (!created) return;
  notice.value = { kind: 'info', text: `Batch ${created.batch_id} accepted: ${created.rows} videos are being made.` };
  batchPreview.value = null;
  batchDraft.value = { ...batchDraft.value, file: null };
  await loadTemplates();
  await openBatch(created.batch_id);
}

/** A header row for the template's CSV, to fill in a spreadsheet. */
export const csvHeaderOf = (template: Template) => `${template.variables.map((v) => v.name).join(',')}\n`;

// --- Following a batch ----------------------------------------------------------------------------------------

export const openedBatch = signal<Batch | null>(null);
export const batchRows = signal<BatchRowVideo[]>([]);
export const moreRowsCursor = signal<string | null>(null);
/** Rows shown: the first page, plus every page "Show more" asked for (kept when the batch is read again). */
const ROWS_PAGE = 100;
let rowsShown = ROWS_PAGE;

/**
 * A row's video links, fixed per video for the page's life (each read presigns fresh ones, and changing a
 * player's source on every poll would restart it).
 */
const rowLinks = new Map<string, { file: string; poster: string | null }>();
export const rowLinksOf = (row: BatchRowVideo) => {
  if (!row.video_id || !row.download_url) return null;
  if (!rowLinks.has(row.video_id)) rowLinks.set(row.video_id, { file: row.download_url, poster: row.thumbnail_url });
  return rowLinks.get(row.video_id)!;
};

async function readRows(id: string, cursor: string | null) {
  const path = `v1/batches/${encodeURIComponent(id)}?limit=${ROWS_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  return call<Batch & { videos: BatchRowVideo[]; next_cursor: string | null }>('GET', path);
}

/** Reads the open batch and the rows shown so far. */
export async function loadBatch() {
  const id = selection.value?.kind === 'batch' ? selection.value.id : null;
  if (!id) return;
  try {
    const rows: BatchRowVideo[] = [];
    let cursor: string | null = null;
    let batch: Batch | null = null;
    do {
      const page = await readRows(id, cursor);
      batch ??= page;
      rows.push(...page.videos);
      cursor = page.next_cursor;
    } while (cursor && rows.length < rowsShown);
    if (selection.value?.kind !== 'batch' || selection.value.id !== id) return; // another one opened meanwhile
    openedBatch.value = batch;
    batchRows.value = rows;
    moreRowsCursor.value = cursor;
  } catch (error) {
    report(error);
  }
}

export async function openBatch(id: string) {
  selection.value = { kind: 'batch', id };
  openedBatch.value = null;
  batchRows.value = [];
  rowsShown = ROWS_PAGE;
  await loadBatch();
}

export async function showMoreRows() {
  rowsShown += ROWS_PAGE;
  await loadBatch();
}

/** The open batch can still change: the page reads it again every few seconds. */
export const batchInProgress = computed(() => {
  const chosen = selection.value;
  const batch = chosen?.kind === 'batch' && openedBatch.value?.batch_id === chosen.id ? openedBatch.value : null;
  // The open batch until its batch.completed has been attempted (its delivery line changes until then), and any
  // batch of the list still running.
  const open = batch !== null && (!isBatchSettled(batch) || batch.webhook.state === 'waiting' || batch.webhook.state === 'pending');
  return open || batches.value.some((b) => !isBatchSettled(b));
});

export async function cancelOpenBatch() {
  const batch = openedBatch.value;
  if (!batch) return;
  try {
    await call('DELETE', `v1/batches/${encodeURIComponent(batch.batch_id)}`);
    notice.value = { kind: 'info', text: `Batch ${batch.batch_id}: the rows not started yet are being cancelled.` };
    await Promise.all([loadBatch(), loadTemplates()]);
  } catch (error) {
    report(error);
  }
}

export const pendingTemplateDelete = signal<string | null>(null);

export async function deleteTemplate(uid: string) {
  try {
    await call('DELETE', `v1/templates/${encodeURIComponent(uid)}`);
    pendingTemplateDelete.value = null;
    selection.value = null;
    openedBatch.value = null;
    notice.value = { kind: 'info', text: `Template ${uid} deleted (its batches and videos stay).` };
    await loadTemplates();
  } catch (error) {
    report(error);
  }
}
