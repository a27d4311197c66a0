/**
 * Writes the SDK's types (src/generated/openapi.ts) from the service's OpenAPI document with openapi-typescript.
 *
 *   npm run sdk:generate                          from the document the service builds (functions/api/openapi.ts)
 *   npm run sdk:generate -- --from URL            from a running service's GET /v1/openapi.json
 *   npm run sdk:generate -- --check               exit 1, writing nothing, if the committed types differ
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../../../functions/api/openapi.ts';

export const GENERATED_FILE = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const HEADER = `/**
 * Generated from the vidbot OpenAPI document by openapi-typescript: do not edit. Regenerate with
 * \`npm run sdk:generate\` (a test fails when this file differs from what the document gives).
 */

`;

/** The types' source text for a document; the server address is not part of the types, so any will do. */
export async function generateTypes(document: object = openApiDocument('http://localhost')): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { alphabetize: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

async function documentFrom(url: string): Promise<object> {
  const response = await fetch(new URL('/v1/openapi.json', url));
  if (!response.ok) throw new Error(`GET ${url}/v1/openapi.json answered ${response.status}`);
  return (await response.json()) as object;
}

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' }, check: { type: 'boolean', default: false } } });
  const text = await generateTypes(values.from ? await documentFrom(values.from) : undefined);
  if (values.check) {
    if (readFileSync(GENERATED_FILE, 'utf8') !== text) {
      console.error('sdk:generate: the committed types differ from the OpenAPI document; run npm run sdk:generate');
      process.exit(1);
    }
    console.log('sdk:generate: the committed types match the OpenAPI document');
    return;
  }
  writeFileSync(GENERATED_FILE, text);
  console.log(`sdk:generate: wrote ${GENERATED_FILE}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: Error) => {
    console.error(`sdk:generate: ${error.message}`);
    process.exit(1);
  });
}
