import { humanize } from '../options.ts';
import { bots } from '../state.ts';

/** The bots the API offers (today the built-in ones), as a gallery. */
export function Bots() {
  return (
    <section aria-labelledby="bots-title">
      <h2 id="bots-title">Bots</h2>
      <p class="help">Built-in presenters. Each has its own voice and a default place in the frame.</p>
      <ul class="gallery">
        {bots.value.map((bot) => (
          <li class="card bot-card">
            {bot.preview_image_url ? <img src={bot.preview_image_url} alt={`${bot.name}, preview`} width={160} height={90} /> : <div class="no-preview">No preview</div>}
            <h3>{bot.name}</h3>
            <p>{bot.description}</p>
            <dl>
              <dt>Voice</dt>
              <dd>
                <code>{bot.voice}</code>
              </dd>
              <dt>Default position</dt>
              <dd>{humanize(bot.default_position)}</dd>
              <dt>Status</dt>
              <dd>
                <span class="badge ok">Ready</span> built-in
              </dd>
              <dt>uid</dt>
              <dd>
                <code>{bot.uid}</code>
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
