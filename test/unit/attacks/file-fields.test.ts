/**
 * A file part under a name the route does not take (`-F mouth_smile=@smile.png` on PUT /v1/bot/{uid}) was answered
 * "is not valid UTF-8": the body reader took it for a text field. It is now named as the field it is not.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { bots, documents, invoke, useMockedApi } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';

useMockedApi();

const PNG = builtInLookAsPrepared('ava').files.get('head-m0-eo.png')!;

async function putBot(parts: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.append(name, value, ...(value instanceof Blob ? ['part.png'] : []));
  const request = new Request('http://localhost/', { method: 'PUT', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return invoke(
    bots,
    restEvent({
      method: 'PUT',
      path: '/v1/bot/my-bot',
      resource: '/v1/bot/{uid}',
      pathParameters: { uid: 'my-bot' },
      headers: { 'Content-Type': request.headers.get('content-type')! },
      body,
    }),
  );
}

describe('a file part the route does not take', () => {
  it('is named as not a bot field (not "not valid UTF-8"); nothing stored', async () => {
    const response = await putBot({ name: 'Me', image: new Blob([PNG]), mouth_smile: new Blob([PNG]) });
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([{ path: 'mouth_smile', message: 'is not a bot field' }]);
    expect(JSON.stringify(response.json)).not.toMatch(/UTF-8/);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('names a text field sent as a binary file as text to send as UTF-8', async () => {
    const response = await putBot({ name: new Blob([PNG]) as unknown as string, image: new Blob([PNG]) });
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toContainEqual({ path: 'name', message: 'is text: send it as UTF-8, not as a binary file' });
  });

  it('still reads a text field sent as a UTF-8 file (`-F description=@about.txt`)', async () => {
    const response = await putBot({ name: 'Me', description: new Blob(['A friendly bot.']), image: new Blob([PNG]), mouth_smile: 'x' });
    expect(response.json.error.details).toEqual([{ path: 'mouth_smile', message: 'is not a bot field' }]);
  });
});
