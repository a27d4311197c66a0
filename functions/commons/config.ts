import type { QueueName, TableName } from '../../infra/wiring.ts';
import { envNames } from './env-names.ts';

export type Mode = 'cloud' | 'local';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing environment variable ${name}: the deployment must set it (see infra/wiring.ts)`);
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
  return { tables, queues, deadLetters, bucket, mode: modeValue as Mode, renderBudgetScale };
}
