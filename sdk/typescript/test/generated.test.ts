import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_FILE, generateTypes } from '../scripts/generate.ts';

it("the committed types are what openapi-typescript makes of the service's OpenAPI document (npm run sdk:generate)", async () => {
  expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(await generateTypes());
});

it('the generated types describe the responses the SDK reads, not a bare object', async () => {
  const text = await generateTypes();
  expect(text).toMatch(/Video: \{[\s\S]*?status: "queued" \| "rendering" \| "assembling" \| "completed" \| "failed";/);
  expect(text).toMatch(/"application\/json": components\["schemas"\]\["CreatedVideo"\]/);
});
