/**
 * A placeholder's default is a value the template carries: `{{bg|http://169.254.169.254/}}` was saved unchecked
 * and refused later, once per row. It is checked when the template is saved, as a value is at create.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documents, invoke, templates, useMockedApi } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';

useMockedApi();

const put = (body: unknown) =>
  invoke(
    templates,
    restEvent({
      method: 'PUT',
      path: '/v1/templates/outreach',
      resource: '/v1/templates/{uid}',
      pathParameters: { uid: 'outreach' },
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );

describe('a placeholder default at an address vidbot never fetches', () => {
  it.each([
    ['clips[0].background', { background: '{{bg|http://169.254.169.254/latest/meta-data/}}' }],
    ['clips[0].background', { background: 'http://{{host|169.254.169.254}}/x.mp4' }],
    ['clips[0].overlays[0].url', { overlays: [{ type: 'image', url: '{{logo|http://[fd00:ec2::254]/x.png}}' }] }],
  ])('is a 400 naming %s when the template is saved; nothing stored', async (path, fields) => {
    const response = await put({ name: 'Outreach', clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}.', ...fields }] });
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([{ path, message: expect.stringMatching(/address vidbot does not connect to/) }]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('saves a template whose default is an ordinary URL', async () => {
    documents.on(GetCommand, { TableName: 'templates' }).resolves({});
    const response = await put({ name: 'Outreach', clips: [{ bot_uid: 'bot_ava', text: 'Hi.', background: '{{bg|https://example.com/b.mp4}}' }] });
    expect(response.statusCode).toBe(200);
  });
});
