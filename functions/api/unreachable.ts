import type { Mode } from '#commons/config';
import { refusalWithoutResolving } from '#commons/net/address-guard';
import type { CreateVideoCommand } from '#domain/create-request';
import type { FieldProblem } from '#domain/errors';

/**
 * Addresses the service will never fetch from or deliver to (metadata, link-local, and on AWS private and
 * loopback ones), refused at once when a create request's URL (webhook, background, a recording, logo, an overlay's image, music) names them literally rather than when the render
 * or the delivery runs into them. Names are judged through DNS at fetch time.
 */
export function unreachableProblems(command: CreateVideoCommand, mode: Mode): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const check = (path: string, value: string | undefined) => {
    const reason = value ? refusalWithoutResolving(new URL(value), mode) : undefined;
    if (reason) problems.push({ path, message: `points at an address vidbot does not connect to (${reason.replace(/_/g, ' ')})` });
  };
  check('webhook', command.webhookUrl);
  check('logo.url', command.logo?.url);
  for (const [index, clip] of command.clips.entries()) {
    if (!('bot_uid' in clip)) continue;
    check(`clips[${index}].background`, clip.background);
    check(`clips[${index}].audio_url`, clip.audio_url);
    for (const [i, overlay] of (clip.overlays ?? []).entries())
      if (overlay.type === 'image') check(`clips[${index}].overlays[${i}].url`, overlay.url);
  }
  check('music.url', command.music?.url);
  return problems;
}
