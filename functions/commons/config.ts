import { envNames, type QueueName, type TableName } from './env-names.ts';

export type Mode = 'cloud' | 'local';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing environment variable ${name}: the deployment must set it (see infra/wiring.ts)`);
  return value;
}

function positiveNumber(name: string): number {
  const value = Number(required(name));
  if (!(value > 0)) throw new Error(`environment variable ${name} must be a positive number, got "${process.env[name]}"`);
  return value;
}

/**
 * Reads a function's resource names once, at cold start (call it at module top level), so a missing variable
 * fails the deployment's first invocation loudly instead of a request halfway through.
 */
export function loadConfig<T extends TableName = never, Q extends QueueName = never, D extends QueueName = never>(needs: {
  tables?: readonly T[];
  queues?: readonly Q[];
  deadLetters?: readonly D[];
  bucket?: boolean;
  /**
   * A queue consumer: reads its queue's maxReceiveCount (the last attempt fails the job for good) and visibility
   * timeout (the longest backoff of a retry).
   */
  consumer?: boolean;
  /** The assemble function: reads its assembly lease. */
  assemblyLease?: boolean;
}) {
  const tables = Object.fromEntries((needs.tables ?? []).map((t) => [t, required(envNames.table(t))])) as Record<T, string>;
  const queues = Object.fromEntries((needs.queues ?? []).map((q) => [q, required(envNames.queueUrl(q))])) as Record<Q, string>;
  const deadLetters = Object.fromEntries((needs.deadLetters ?? []).map((q) => [q, required(envNames.deadLetterQueueUrl(q))])) as Record<D, string>;
  const bucket = needs.bucket ? required(envNames.bucket) : '';
  const modeValue = process.env[envNames.mode] ?? 'cloud';
  if (modeValue !== 'cloud' && modeValue !== 'local') throw new Error(`${envNames.mode} must be cloud or local, got "${modeValue}"`);
  const scaleValue = process.env[envNames.renderBudgetScale] ?? '1';
  const renderBudgetScale = Number(scaleValue);
  if (!(renderBudgetScale > 0)) throw new Error(`${envNames.renderBudgetScale} must be a positive number, got "${scaleValue}"`);
  const warmUpValue = process.env[envNames.renderWarmUp] ?? 'on';
  if (warmUpValue !== 'on' && warmUpValue !== 'off') throw new Error(`${envNames.renderWarmUp} must be on or off, got "${warmUpValue}"`);
  const speechValue = process.env[envNames.speechEngine] ?? 'espeak';
  if (speechValue !== 'espeak' && speechValue !== 'polly') throw new Error(`${envNames.speechEngine} must be espeak or polly, got "${speechValue}"`);
  // Which voices the deployment speaks: Polly's too where it uses Polly (listVoices, findVoice, voiceToSpeak).
  const voices = { polly: speechValue === 'polly' };
  const maxReceiveCount = needs.consumer ? positiveNumber(envNames.maxReceiveCount) : 0;
  const visibilitySeconds = needs.consumer ? positiveNumber(envNames.consumedQueueVisibilitySeconds) : 0;
  const assemblyLeaseSeconds = needs.assemblyLease ? positiveNumber(envNames.assemblyLeaseSeconds) : 0;
  // Where the render engine's files are, when not beside its bundle (render/engine/assets.ts).
  const engineAssets = {
    botsDirectory: process.env[envNames.botsDirectory] || undefined,
    captionFontPath: process.env[envNames.captionFontPath] || undefined,
  };
  return {
    tables,
    queues,
    deadLetters,
    bucket,
    mode: modeValue as Mode,
    renderBudgetScale,
    renderWarmUp: warmUpValue === 'on',
    voices,
    maxReceiveCount,
    visibilitySeconds,
    assemblyLeaseSeconds,
    engineAssets,
  };
}
