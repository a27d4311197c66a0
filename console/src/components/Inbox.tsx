import { useState } from 'preact/hooks';
import { inboxEvents, inboxUrl, loadInbox } from '../state.ts';

/** The account's webhook inbox: every delivery whose signature verified, newest first. */
export function Inbox() {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="inbox-title">
      <h2 id="inbox-title">Webhook inbox</h2>
      <div class="card">
        <label for="inbox-url">Your inbox URL</label>
        <div class="inline">
          <input id="inbox-url" readOnly value={inboxUrl.value} />
          <button
            type="button"
            onClick={async () => {
              await navigator.clipboard?.writeText(inboxUrl.value).catch(() => undefined);
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
          <button type="button" onClick={() => loadInbox()}>
            Refresh
          </button>
        </div>
        <p class="help">
          Use it as a video's webhook. vidbot keeps each delivery whose Standard Webhooks signature verifies with your webhook secret, for 7 days;
          anything else is refused with 401.
        </p>
      </div>
      {inboxEvents.value.length === 0 && <p class="help">No events yet.</p>}
      <ul class="events">
        {inboxEvents.value.map((event) => (
          <li class="card event">
            <div class="row-top">
              <strong>{event.type ?? 'event'}</strong>
              {event.signature_verified && <span class="badge ok">✓ signature verified</span>}
            </div>
            <p class="help">
              {new Date(event.received_at).toLocaleString()} · <code class="wrap-anywhere">{event.webhook_id}</code>
              {event.event?.data?.video_id && (
                <>
                  {' '}
                  · video <code>{event.event.data.video_id}</code>
                </>
              )}
            </p>
            <details>
              <summary>Payload</summary>
              <pre tabIndex={0}>
                <code>{event.event ? JSON.stringify(event.event, null, 2) : event.payload}</code>
              </pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
