import { botPreviewKey, toPublicBot, type Bot } from '#domain/bot';
import type { BotCatalog, ObjectStore } from '#domain/ports';
import { NotFoundError } from '#commons/errors';
import { json, type HttpResult } from '#commons/http';

/** Preview links are presigned; a week keeps them usable in a cached listing. */
const PREVIEW_LINK_SECONDS = 7 * 24 * 3600;

const publicBot = async (bot: Bot, objects: ObjectStore) => toPublicBot(bot, (await objects.presignGet(botPreviewKey(bot), PREVIEW_LINK_SECONDS)).url);

/** List all bots: shared by POST /v1/bot/ (the interface's form) and GET /v1/bot. */
export async function listBots(bots: BotCatalog, objects: ObjectStore): Promise<HttpResult> {
  const all = await bots.list();
  return json(200, { bots: await Promise.all(all.map((b) => publicBot(b, objects))) });
}

export async function getBot(uid: string, bots: BotCatalog, objects: ObjectStore): Promise<HttpResult> {
  const bot = await bots.get(uid);
  if (!bot) throw new NotFoundError(`No bot "${uid}".`);
  return json(200, await publicBot(bot, objects));
}
