/**
 * The scripts' webhook receiver (infra/scripts/support), for tests: it also fails on stop() when an event's error
 * message carried internals (paths, ffmpeg's text, addresses; see ./public-errors.ts).
 */
import { startWebhookReceiver as startReceiver } from '#infra/scripts/support/webhook-receiver.ts';
import { internalsIn } from './public-errors.ts';

export async function startWebhookReceiver(secret: string, respond?: (n: number) => number | 'hang') {
  const leaks: string[] = [];
  const receiver = await startReceiver(secret, respond, {
    onEvent: (event) => {
      const message = (event.data?.error as { message?: string } | undefined)?.message;
      if (message && internalsIn(message).length) leaks.push(`${internalsIn(message).join(', ')}: ${message}`);
    },
  });
  return {
    ...receiver,
    async stop() {
      await receiver.stop();
      if (leaks.length) throw new Error(`webhook error messages carried internals:\n${leaks.join('\n')}`);
    },
  };
}
