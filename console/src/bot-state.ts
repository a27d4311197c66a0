/**
 * The console's bots: the bot form's draft and its sending (a photo, drawings or a video recording), deleting a
 * bot and sending its event again. The rest of the console's state is in state.ts.
 */
import { signal } from '@preact/signals';
import { ApiRequestError, type Bot, type Problem } from './api.ts';
import { answeredPaths, type BotDraft, botDraftProblems, botFormData, emptyBotDraft, videoBotBody } from './bot-form.ts';
import { mediaSeconds } from './media-capture.ts';
import { bots, call, loadBots, notice, report } from './state.ts';
import { uploadOnce, uploadUsed } from './uploads.ts';

export const botDraft = signal<BotDraft>(emptyBotDraft());
/** Problems with the bot form: the page's own checks, then the API's, each by its path (uid, name, image, …). */
export const botProblems = signal<Problem[]>([]);
export const botFormError = signal('');
export const botSubmitting = signal(false);
export const pendingBotDelete = signal<string | null>(null);

/**
 * Changes the draft. A field changed is no longer marked wrong (a new recording after "too short", the consent
 * ticked): its problems go, and the others stay until the form is sent again.
 */
export function setBotDraft(change: Partial<BotDraft>) {
  const answered = answeredPaths(botDraft.value, change);
  botDraft.value = { ...botDraft.value, ...change };
  if (!botProblems.value.some((p) => answered.has(p.path))) return;
  botProblems.value = botProblems.value.filter((p) => !answered.has(p.path));
  // The form's "cannot be sent yet" was about those problems: with none left, it goes too.
  if (botProblems.value.length === 0) botFormError.value = '';
}

export async function submitBot() {
  const draft = botDraft.value;
  botFormError.value = '';
  // A chosen file's length is read here (a recording made on this page knows its own).
  if (draft.source === 'video' && draft.video && draft.videoSeconds === null) {
    const videoSeconds = await mediaSeconds(draft.video);
    if (botDraft.value.video === draft.video) setBotDraft({ videoSeconds });
  }
  botProblems.value = botDraftProblems(botDraft.value);
  if (botProblems.value.length) {
    botFormError.value = 'The bot cannot be sent yet.';
    return;
  }
  botSubmitting.value = true;
  try {
    const path = `v1/bot/${encodeURIComponent(draft.uid)}`;
    const video = draft.source === 'video' ? draft.video : null;
    const made = video
      ? await call<Bot>('PUT', path, videoBotBody(draft, await uploadOnce(call, video, 'video_upload')))
      : await call<Bot>('PUT', path, botFormData(draft));
    if (video) uploadUsed(video);
    notice.value = { kind: 'info', text: `Bot ${made.uid} accepted; it is being prepared.` };
    botDraft.value = emptyBotDraft();
    await loadBots();
  } catch (error) {
    if (error instanceof ApiRequestError && error.status !== 401) {
      botProblems.value = error.details;
      botFormError.value = error.message;
    } else report(error);
  } finally {
    botSubmitting.value = false;
  }
}

export async function deleteBot(uid: string) {
  try {
    await call('DELETE', `v1/bot/${encodeURIComponent(uid)}`);
    pendingBotDelete.value = null;
    notice.value = { kind: 'info', text: `Bot ${uid} deleted.` };
    await loadBots();
  } catch (error) {
    report(error);
  }
}

const attemptsOf = (uid: string) => bots.value.find((b) => b.uid === uid)?.webhook_delivery?.attempts.length ?? 0;

/** Bots whose event is being sent again from this page: their button waits. */
export const redeliveringBots = signal<ReadonlySet<string>>(new Set());

/** Sends a bot's event again, then reads the bot until the new attempt shows (for up to about 15 s). */
export async function redeliverBotEvent(uid: string) {
  if (redeliveringBots.value.has(uid)) return;
  redeliveringBots.value = new Set([...redeliveringBots.value, uid]);
  try {
    const before = attemptsOf(uid);
    await call('POST', `v1/bot/${encodeURIComponent(uid)}/redeliver`);
    notice.value = { kind: 'info', text: `The webhook event of bot ${uid} is being sent again.` };
    for (let tries = 0; tries < 10; tries++) {
      await loadBots();
      if (attemptsOf(uid) > before) break;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  } catch (error) {
    report(error);
  } finally {
    redeliveringBots.value = new Set([...redeliveringBots.value].filter((other) => other !== uid));
  }
}

/** The bot form's problems for one field. */
export const botProblemsAt = (path: string) => botProblems.value.filter((p) => p.path === path);
