import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ensureTables } from '#infra/local/emulators.ts';
import { tables } from '#infra/wiring.ts';

/** dynalite in memory with every table of the wiring, for tests of the real DynamoDB adapters. */
// dynalite ships no types; this is the one function it exports.
const dynalite = createRequire(import.meta.url)('dynalite') as (options: Record<string, unknown>) => Server;

export async function startDynamo() {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const raw = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await ensureTables(raw, tables, (name) => name);
  const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { client, raw, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
