import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envNames } from '#functions/commons/env-names.ts';
import { queues, tables } from '#infra/wiring.ts';

/** docs/environment-variables.md lists exactly the variables the wiring can give a function (commons/env-names.ts). */
const doc = readFileSync(resolve(import.meta.dirname, '../../../docs/environment-variables.md'), 'utf8');

/** The first-column names (`NAME`) of the table under a `## heading`. */
function tableNames(heading: string): string[] {
  const section = doc.split(/^## /m).find((s) => s.startsWith(heading));
  if (!section) throw new Error(`no section "${heading}"`);
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
}

describe('docs/environment-variables.md', () => {
  it('lists every function variable of commons/env-names.ts, and no other', () => {
    const expected = new Set<string>();
    for (const value of Object.values(envNames)) if (typeof value === 'string') expected.add(value);
    for (const table of Object.keys(tables)) expected.add(envNames.table(table));
    for (const queue of Object.keys(queues)) {
      expected.add(envNames.queueUrl(queue));
      expected.add(envNames.deadLetterQueueUrl(queue));
    }
    expect(new Set(tableNames('Functions'))).toEqual(expected);
  });
});
