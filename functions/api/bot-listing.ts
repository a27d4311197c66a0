import type { BotCatalog, ObjectStore } from '#domain/ports';
import { NotFound } from '#domain/errors';
import { json, type HttpResult } from '#commons/http';
import { presentBot } from '#commons/presenters/bot';
import type { VoiceOptions } from '#domain/voices';

/** List all bots: shared by POST /v1/bot/ (the interface's form) and GET /v1/bot. */
export async function listBots(bots: BotCatalog, objects: ObjectStore, voices: VoiceOptions): Promise<HttpResult> {
  const all = await bots.list();
  return json(200, { bots: await Promise.all(all.map((b) => presentBot(b, objects, voices))) });
}

export async function getBot(uid: string, bots: BotCatalog, objects: ObjectStore, voices: VoiceOptions): Promise<HttpResult> {
  const bot = await bots.get(uid);
  if (!bot) throw new NotFound(`No bot "${uid}".`);
  return json(200, await presentBot(bot, objects, voices));
}
