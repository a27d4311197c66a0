import { useState } from 'preact/hooks';
import { apiOrigin } from '../api.ts';
import { curlCommand } from '../request.ts';
import { body } from '../state.ts';

/** The request about to be sent, as the curl command that sends the same (the key stays $KEY). */
export function CurlPreview() {
  const [copied, setCopied] = useState(false);
  const command = curlCommand(apiOrigin(), body.value);
  return (
    <section class="card curl" aria-labelledby="curl-title">
      <div class="curl-head">
        <h3 id="curl-title">The same request with curl</h3>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(command).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }}
        >
          {copied ? 'Copied' : 'Copy curl'}
        </button>
      </div>
      <pre aria-label="curl command" tabIndex={0}>
        <code>{command}</code>
      </pre>
    </section>
  );
}
