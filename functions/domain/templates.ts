/**
 * Templates: a create request saved once with placeholders in its clips' text fields (`Hi {{first_name}}`), from
 * which videos are made by giving the values. A template is checked when it is saved, as a create request would
 * be with each placeholder replaced by a sample value, so that a bad bot, position or `{{` is a 400 then and not
 * later for each video.
 */
import { BOT_UID_PATTERN, BOT_UID_RULE } from './choices.ts';
import { type CreateVideoCommand, parseClipsField, parseCreateVideo } from './create-request.ts';
import { type FieldProblem, InvalidRequestError, NotFoundError } from './errors.ts';
import { limits } from './limits.ts';
import { fillPlaceholders, hasPlaceholder, parsePlaceholders, type TemplatePart } from './placeholders.ts';
import type { TemplateStore } from './ports.ts';
import { escapeSpeechText } from './speech-markup.ts';
import { nameProblem } from './text-rules.ts';

/** The clip fields that may hold placeholders: text fields; booleans and numbers take none. */
const PLACEHOLDER_FIELDS = [
  'text',
  'clip_name',
  'background',
  'audio_url',
  'audio_upload',
  'voice',
  'bot_uid',
  'bot_position',
  'bot_size',
  'transitions',
] as const;
/** An overlay's fields that may hold placeholders (`clips[0].overlays[1].text`: "Hi {{name}}"). */
const OVERLAY_PLACEHOLDER_FIELDS = ['text', 'url'] as const;
type PlaceholderField = (typeof PLACEHOLDER_FIELDS)[number] | 'url';
const OPTIONAL_FIELDS: readonly PlaceholderField[] = [
  'clip_name',
  'background',
  'audio_url',
  'audio_upload',
  'voice',
  'bot_position',
  'bot_size',
  'transitions',
];
/** What a template may hold: a create request's fields but the webhook, which each video (or batch) gives. */
const TEMPLATE_FIELDS = ['name', 'create_video', 'aspect_ratio', 'resolution', 'captions', 'logo', 'theme', 'music', 'clips'] as const;

export interface TemplateVariable {
  name: string;
  /** A variable with no default in any of its placeholders must be given for every video. */
  required: boolean;
  default?: string;
}

export interface TemplateRecord {
  tenantId: string;
  uid: string;
  name: string;
  /** The create fields as saved (clips as an array of objects), placeholders in place. */
  request: Record<string, unknown> & { clips: Record<string, unknown>[] };
  variables: TemplateVariable[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A value for a placeholder a template names without a default, when the template is checked: valid for the
 * field it fills alone (`bot_position: "{{where}}"` is checked as `center`), plain words inside longer text.
 */
const SAMPLE_FOR_WHOLE_FIELD: Record<PlaceholderField, string | undefined> = {
  text: 'Sample text',
  clip_name: 'Sample',
  background: 'https://example.com/background.mp4',
  audio_url: 'https://example.com/recording.mp3',
  // The form of an upload_id: which upload a row names is checked when a batch or video takes it.
  audio_upload: 'upl_sampleSAMPLEsamp',
  voice: undefined,
  bot_uid: 'bot_ava',
  bot_position: 'center',
  bot_size: 'medium',
  transitions: '',
  url: 'https://example.com/logo.png',
};
const SAMPLE_WORD = 'sample';
/** The webhook of the sample request a template is checked as (a real one is given per video). */
const SAMPLE_WEBHOOK = 'https://example.com/webhook';

/** A clip's fields with placeholders, by their path in the clip (`text`, `overlays[1].text`). */
type ParsedClips = { clip: Record<string, unknown>; fields: Record<string, TemplatePart[]> }[];

/** The kind of a placeholder field from its path in the clip: `overlays[1].text` is a text. */
const fieldKind = (key: string) => key.slice(key.lastIndexOf('.') + 1) as PlaceholderField;

/** An overlay's placeholder fields, into `fields` by their path in the clip; any other field takes none. */
function readOverlays(overlays: unknown[], clipPath: string, fields: ParsedClips[number]['fields'], problems: FieldProblem[]) {
  overlays.forEach((overlay, i) => {
    if (!overlay || typeof overlay !== 'object') return;
    for (const [key, value] of Object.entries(overlay)) {
      const path = `${clipPath}.overlays[${i}].${key}`;
      if (typeof value !== 'string') continue;
      if (!(OVERLAY_PLACEHOLDER_FIELDS as readonly string[]).includes(key)) {
        if (value.includes('{{')) problems.push({ path, message: 'takes no placeholder' });
        continue;
      }
      const parsed = parsePlaceholders(value);
      if ('problem' in parsed) problems.push({ path, message: parsed.problem });
      else if (hasPlaceholder(parsed.parts)) fields[`overlays[${i}].${key}`] = parsed.parts;
    }
  });
}

/** The clips' placeholder fields cut into parts; a placeholder where none may be, or a malformed one, is named. */
function readClips(value: unknown, problems: FieldProblem[]): ParsedClips {
  let raw: unknown[];
  try {
    raw = parseClipsField(value);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    problems.push(...error.problems);
    return [];
  }
  return raw.map((clip, index) => {
    if (!clip || typeof clip !== 'object' || Array.isArray(clip)) {
      problems.push({ path: `clips[${index}]`, message: 'must be a clip object' });
      return { clip: {}, fields: {} };
    }
    const fields: ParsedClips[number]['fields'] = {};
    for (const [key, fieldValue] of Object.entries(clip)) {
      const path = `clips[${index}].${key}`;
      if (key === 'overlays' && Array.isArray(fieldValue)) readOverlays(fieldValue, `clips[${index}]`, fields, problems);
      if (typeof fieldValue !== 'string') continue;
      if (!(PLACEHOLDER_FIELDS as readonly string[]).includes(key)) {
        if (fieldValue.includes('{{')) problems.push({ path, message: 'takes no placeholder' });
        continue;
      }
      const parsed = parsePlaceholders(fieldValue);
      if ('problem' in parsed) problems.push({ path, message: parsed.problem });
      else if (hasPlaceholder(parsed.parts)) fields[key] = parsed.parts;
    }
    return { clip: clip as Record<string, unknown>, fields };
  });
}

/** Every variable, in order of first appearance, with its default; two different defaults for one name is a problem. */
function variablesOf(clips: ParsedClips, problems: FieldProblem[]): TemplateVariable[] {
  const found = new Map<string, TemplateVariable>();
  clips.forEach(({ fields }, index) => {
    for (const [key, parts] of Object.entries(fields)) {
      for (const part of parts) {
        if (!('variable' in part)) continue;
        const known = found.get(part.variable);
        if (!known)
          found.set(part.variable, {
            name: part.variable,
            required: part.default === undefined,
            ...(part.default !== undefined && { default: part.default }),
          });
        else if (part.default !== undefined && known.default !== undefined && known.default !== part.default)
          problems.push({
            path: `clips[${index}].${key}`,
            message: `gives {{${part.variable}}} a default other than its earlier one ("${known.default}")`,
          });
        else if (part.default !== undefined && known.default === undefined) Object.assign(known, { default: part.default, required: false });
      }
    }
  });
  return [...found.values()];
}

/** An optional field filled with nothing is left out, as an empty form field is: the bot's own voice and place. */
const withoutEmpty = (field: PlaceholderField, value: string): string | undefined =>
  value.trim() === '' && OPTIONAL_FIELDS.includes(field) ? undefined : value;

/** The clips with every placeholder filled by `fill`; a field that is one placeholder alone may be left out (undefined). */
function filledClips(
  clips: ParsedClips,
  fill: (field: PlaceholderField, parts: TemplatePart[], key: string) => string | undefined,
): Record<string, unknown>[] {
  return clips.map(({ clip, fields }) => {
    const filled: Record<string, unknown> = { ...clip };
    // The overlays are copied too: the template's own objects are never written.
    if (Array.isArray(clip.overlays)) filled.overlays = clip.overlays.map((o) => (o && typeof o === 'object' ? { ...o } : o));
    for (const [key, parts] of Object.entries(fields)) {
      const value = fill(fieldKind(key), parts, key);
      const overlay = /^overlays\[(\d+)\]\.(\w+)$/.exec(key);
      const target = overlay ? ((filled.overlays as Record<string, unknown>[])[Number(overlay[1])] as Record<string, unknown>) : filled;
      const name = overlay ? overlay[2]! : key;
      if (value === undefined) delete target[name];
      else target[name] = value;
    }
    return filled;
  });
}

export interface SaveTemplateCommand {
  uid: string;
  name: string;
  request: TemplateRecord['request'];
  variables: TemplateVariable[];
  /** The template as a create request with sample values: its bots and voices are checked by the caller (checkClips). */
  sample: CreateVideoCommand;
}

function checkUid(uid: string) {
  if (!BOT_UID_PATTERN.test(uid)) throw new InvalidRequestError([{ path: 'uid', message: BOT_UID_RULE }]);
}

/** PUT /v1/templates/{uid}: the body checked as a create request with sample values, or every problem named. */
export function parseTemplate(uid: string, body: Record<string, unknown>): SaveTemplateCommand {
  checkUid(uid);
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(body)) {
    if (key === 'webhook' || key === 'process_done_webhook')
      problems.push({ path: key, message: 'is given when videos are made from the template (POST /v1/templates/{uid}/videos), not saved in it' });
    else if (!(TEMPLATE_FIELDS as readonly string[]).includes(key)) problems.push({ path: key, message: 'is not a template field' });
    // Placeholders are filled in the clips' text fields only; `music` (an object, or its JSON) takes none either.
    else if (key !== 'clips' && key !== 'name' && JSON.stringify(body[key] ?? '').includes('{{'))
      problems.push({ path: key, message: 'takes no placeholder' });
  }
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) problems.push({ path: 'name', message: 'is required' });
  else if (name.length > limits.maxTemplateNameChars)
    problems.push({ path: 'name', message: `must be at most ${limits.maxTemplateNameChars} characters` });
  else if (nameProblem(name)) problems.push({ path: 'name', message: nameProblem(name)! });
  const clips = body.clips === undefined || body.clips === '' ? [] : readClips(body.clips, problems);
  const variables = variablesOf(clips, problems);
  if (variables.length > limits.maxTemplateVariables)
    problems.push({ path: 'clips', message: `names ${variables.length} variables; at most ${limits.maxTemplateVariables} are allowed` });
  if (problems.length) throw new InvalidRequestError(problems);

  const { name: _name, ...fields } = body;
  const sampleClips = filledClips(clips, (field, parts, key) => {
    if (parts.length === 1 && 'variable' in parts[0]! && parts[0].default === undefined) return SAMPLE_FOR_WHOLE_FIELD[field];
    return withoutEmpty(
      field,
      fillPlaceholders(parts, (_, fallback) => asValue(key, fallback ?? SAMPLE_WORD)),
    );
  });
  const sample = parseCreateVideo({ ...fields, webhook: SAMPLE_WEBHOOK, clips: body.clips === undefined ? undefined : sampleClips });
  return { uid, name, request: { ...fields, clips: clips.map((c) => c.clip) }, variables, sample };
}

/**
 * A value filled into a clip's own `text` (spoken, markup read) is data: escaped, so that it is said as written and
 * never read as markup. An overlay's `text` reads no markup: its value goes in as written.
 */
const asValue = (key: string, value: string) => (key === 'text' ? escapeSpeechText(value) : value);

/** A variable's value as rows and requests give it: text (numbers and booleans as written). */
function valueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The create fields of one video from the template and its values (`pathPrefix` names where the values came
 * from in the caller's request: `variables`, `rows[17]`). Unknown or missing variables and values that are not
 * text are named; the filled request is then validated as any create request is.
 */
export function fieldsFromTemplate(template: TemplateRecord, values: unknown, pathPrefix = 'variables'): Record<string, unknown> {
  const problems: FieldProblem[] = [];
  const given = values === undefined ? {} : values;
  if (!given || typeof given !== 'object' || Array.isArray(given))
    throw new InvalidRequestError([{ path: pathPrefix, message: 'must be an object of variable names to text values' }]);
  const count = Object.keys(given).length;
  if (count > limits.maxTemplateVariables)
    throw new InvalidRequestError([
      { path: pathPrefix, message: `has ${count} values; a template has at most ${limits.maxTemplateVariables} variables` },
    ]);
  const names = new Set(template.variables.map((v) => v.name));
  const text = new Map<string, string>();
  for (const [key, value] of Object.entries(given)) {
    const path = `${pathPrefix}.${key}`;
    if (!names.has(key)) problems.push({ path, message: `is not a variable of this template (its variables: ${[...names].join(', ') || 'none'})` });
    else if (valueText(value) === undefined) problems.push({ path, message: 'must be text' });
    else if (valueText(value)!.length > limits.maxVariableChars)
      problems.push({ path, message: `must be at most ${limits.maxVariableChars} characters` });
    else text.set(key, valueText(value)!);
  }
  for (const variable of template.variables)
    if (variable.required && !text.has(variable.name)) problems.push({ path: `${pathPrefix}.${variable.name}`, message: 'is required' });
  if (problems.length) throw new InvalidRequestError(problems);

  const clips = readClips(template.request.clips, problems);
  const filled = filledClips(clips, (field, parts, key) =>
    withoutEmpty(
      field,
      fillPlaceholders(parts, (name, fallback) => asValue(key, text.get(name) ?? fallback ?? '')),
    ),
  );
  return { ...template.request, clips: filled };
}

export interface TemplateDeps {
  templates: TemplateStore;
  now: () => Date;
}

/** Creates or replaces the template; `checkClips` has already found its bots and voices. */
export async function saveTemplate(tenantId: string, command: SaveTemplateCommand, deps: TemplateDeps): Promise<TemplateRecord> {
  const existing = await deps.templates.get(tenantId, command.uid);
  const now = deps.now().toISOString();
  const record: TemplateRecord = {
    tenantId,
    uid: command.uid,
    name: command.name,
    request: command.request,
    variables: command.variables,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await deps.templates.put(record);
  return record;
}

export async function ownTemplate(templates: Pick<TemplateStore, 'get'>, tenantId: string, uid: string): Promise<TemplateRecord> {
  const template = BOT_UID_PATTERN.test(uid) ? await templates.get(tenantId, uid) : undefined;
  if (!template) throw new NotFoundError(`No template "${uid}" in this account; list yours with GET /v1/templates.`);
  return template;
}

export async function deleteTemplate(templates: TemplateStore, tenantId: string, uid: string): Promise<void> {
  if (!BOT_UID_PATTERN.test(uid) || !(await templates.delete(tenantId, uid)))
    throw new NotFoundError(`No template "${uid}" in this account; list yours with GET /v1/templates.`);
}

/**
 * The clips of a template that name no variable (a fixed intro, an outro): the same for every video made from it,
 * so a batch renders them once (its first row) and every other row finds them rendered.
 */
export function sharedClipIndexes(template: Pick<TemplateRecord, 'request'>): number[] {
  return readClips(template.request.clips, []).flatMap(({ fields }, index) => (Object.keys(fields).length === 0 ? [index] : []));
}
