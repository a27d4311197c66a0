import type { Bot } from '../api.ts';
import { whatToDo } from '../bot-failures.ts';
import { deleteBot, pendingBotDelete, redeliverBotEvent, redeliveringBots } from '../bot-state.ts';
import { humanize } from '../options.ts';
import { bots, voices } from '../state.ts';
import { describeVoice } from '../voices.ts';
import { BotMaker } from './BotMaker.tsx';

const STATUS_BADGE = { preparing: 'busy', ready: 'ok', failed: 'bad' } as const;

/** The last attempt's answer, when there was one: " (last: HTTP 200)" or " (last: timeout)". */
function lastAttemptNote(attempts: NonNullable<Bot['webhook_delivery']>['attempts']): string {
  const last = attempts.at(-1);
  if (!last) return '';
  return ` (last: ${last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer')})`;
}

function BotCard({ bot }: { bot: Bot }) {
  const status = bot.status;
  const builtIn = bot.built_in;
  return (
    <li class="card bot-card" aria-labelledby={`bot-${bot.uid}-name`}>
      {status === 'ready' && bot.preview_image_url ? (
        <img src={bot.preview_image_url} alt={`${bot.name}, preview`} width={160} height={90} />
      ) : (
        <div class="no-preview">
          {status === 'preparing' ? 'Being prepared…' : status === 'failed' ? 'No look: preparation failed' : 'No preview'}
        </div>
      )}
      <h3 id={`bot-${bot.uid}-name`}>{bot.name}</h3>
      <p class="bot-tags">
        <span class={`badge ${STATUS_BADGE[status]}`} role="status">
          {status}
        </span>{' '}
        <span class={`badge ${builtIn ? 'builtin' : 'own'}`}>{builtIn ? 'built-in' : 'yours'}</span>
        {bot.kind === 'video' && <span class="badge own">video</span>}
      </p>
      {bot.error && (
        <div class="failure">
          <p class="field-error">
            <code>{bot.error.code}</code>: {bot.error.message}
          </p>
          {whatToDo(bot.error.code) && (
            <p class="what-to-do">
              <strong>What to do:</strong> {whatToDo(bot.error.code)}
            </p>
          )}
        </div>
      )}
      {bot.footage?.warnings?.length ? (
        <div class="warnings">
          <p>
            <strong>What the recording lacks</strong> (the bot works; a new recording fixes these):
          </p>
          <ul>
            {bot.footage.warnings.map((w) => (
              <li key={w.code}>{w.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {bot.description && <p>{bot.description}</p>}
      <dl>
        <dt>Voice</dt>
        <dd>{describeVoice(bot.voice, voices.value)}</dd>
        <dt>Default position</dt>
        <dd>{humanize(bot.default_position)}</dd>
        <dt>uid</dt>
        <dd>
          <code>{bot.uid}</code>
        </dd>
        {bot.webhook_delivery && (
          <>
            <dt>Webhook event</dt>
            <dd>
              {bot.webhook_delivery.state}, {bot.webhook_delivery.attempts.length}{' '}
              {bot.webhook_delivery.attempts.length === 1 ? 'attempt' : 'attempts'}
              {lastAttemptNote(bot.webhook_delivery.attempts)}
            </dd>
          </>
        )}
      </dl>
      {bot.webhook_delivery && (
        <button
          type="button"
          onClick={() => redeliverBotEvent(bot.uid)}
          disabled={bot.webhook_delivery.state === 'delivering' || redeliveringBots.value.has(bot.uid)}
          aria-label={`Send the webhook event of ${bot.name} again`}
        >
          Send event again
        </button>
      )}
      {!builtIn &&
        (pendingBotDelete.value === bot.uid ? (
          <span class="confirm" role="group" aria-label={`Confirm deleting ${bot.name}`}>
            Delete this bot for good?
            <button type="button" class="danger" onClick={() => deleteBot(bot.uid)}>
              Yes, delete
            </button>
            <button type="button" onClick={() => (pendingBotDelete.value = null)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" class="danger" onClick={() => (pendingBotDelete.value = bot.uid)} aria-label={`Delete bot ${bot.name}`}>
            Delete
          </button>
        ))}
    </li>
  );
}

/** The account's own bots (made here or by PUT /v1/bot/{uid}) and the built-in ones; a form to make another. */
export function Bots() {
  const own = bots.value.filter((b) => !b.built_in);
  const builtIn = bots.value.filter((b) => b.built_in);
  return (
    <section aria-labelledby="bots-title">
      <h2 id="bots-title">Bots</h2>
      <BotMaker />
      <h3 id="own-bots-title">Your bots</h3>
      {own.length === 0 ? (
        <p class="help">None yet: make one above from a photo, from drawn layers or from a video of a person.</p>
      ) : (
        <ul class="gallery" aria-labelledby="own-bots-title">
          {own.map((bot) => (
            <BotCard key={bot.uid} bot={bot} />
          ))}
        </ul>
      )}
      <h3 id="builtin-bots-title">Built-in bots</h3>
      <p class="help">Every account has these; they cannot be deleted.</p>
      <ul class="gallery" aria-labelledby="builtin-bots-title">
        {builtIn.map((bot) => (
          <BotCard key={bot.uid} bot={bot} />
        ))}
      </ul>
    </section>
  );
}
