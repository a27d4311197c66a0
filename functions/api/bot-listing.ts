import { type HttpResult, json } from '#commons/http';
import { presentAccountBot, presentBot } from '#commons/presenters/bot';
import { resolveBot } from '#domain/account-bots';
import { NotFoundError } from '#domain/errors';
import type { AccountBotStore, BotCatalog, ObjectStore } from '#domain/ports';
import type { VoiceOptions } from '#domain/voices';

export interface BotListingDeps {
  bots: BotCatalog;
  accountBots: Pick<AccountBotStore, 'get' | 'list'>;
  objects: ObjectStore;
  voices: VoiceOptions;
}

/** The built-in bots, then the caller's own: shared by POST /v1/bot/ (the interface's form) and GET /v1/bot. */
export async function listBots(tenantId: string, deps: BotListingDeps): Promise<HttpResult> {
  const [builtIn, own] = await Promise.all([deps.bots.list(), deps.accountBots.list(tenantId)]);
  own.sort((a, b) => a.uid.localeCompare(b.uid));
  const bots = [
    ...(await Promise.all(builtIn.map((b) => presentBot(b, deps.objects, deps.voices)))),
    ...(await Promise.all(own.map((b) => presentAccountBot(b, deps.objects, deps.voices)))),
  ];
  return json(200, { bots });
}

/** One bot: built-in, or the caller's; another account's bot is not found, exactly like one that does not exist. */
export async function getBot(tenantId: string, uid: string, deps: BotListingDeps): Promise<HttpResult> {
  const found = await resolveBot(tenantId, uid, deps);
  if (!found) throw new NotFoundError(`No bot "${uid}".`);
  return json(
    200,
    found.own ? await presentAccountBot(found.own, deps.objects, deps.voices) : await presentBot(found.bot, deps.objects, deps.voices),
  );
}
