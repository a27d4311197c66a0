/**
 * The synthesised stack as text that a diff can read: every resource's logical id and type (the snapshot
 * test/fixtures/infra/stack-resources.txt), and the whole template with the code assets' hashes masked (they
 * change with any edit of a function's code, which is not a change of the stack).
 *
 * `npx tsx test/support/stack-summary.ts template > stack.json` prints the template; docs/operations.md shows how
 * to compare two commits with it.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { synthStack } from './synth.ts';

/** A 64-hex asset hash (a bundle's zip, an image's tag) as it appears in S3 keys and image URIs. */
const ASSET_HASH = /[0-9a-f]{64}/g;

function stackTemplate(): Record<string, unknown> {
  return JSON.parse(JSON.stringify(Template.fromStack(synthStack().stack).toJSON()).replace(ASSET_HASH, '<asset>'));
}

/** One line per resource, `LogicalId Type`, sorted. */
export function resourceList(template: Record<string, unknown>): string {
  const resources = template.Resources as Record<string, { Type: string }>;
  return `${Object.entries(resources)
    .map(([id, r]) => `${id} ${r.Type}`)
    .sort()
    .join('\n')}\n`;
}

if (process.argv[1] === import.meta.filename) {
  const template = stackTemplate();
  process.stdout.write(process.argv[2] === 'template' ? `${JSON.stringify(template, null, 1)}\n` : resourceList(template));
}
