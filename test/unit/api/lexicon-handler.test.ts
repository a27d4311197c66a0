/** The lexicon handler against mocked AWS clients: stored under the caller's account only, an empty list removes it. */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documents, invoke, lexicon, useMockedApi } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';

useMockedApi();

const put = (body: unknown) =>
  invoke(lexicon, restEvent({ method: 'PUT', path: '/v1/lexicon', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));

describe('/v1/lexicon', () => {
  it("PUT stores the whole list under the caller's account, whatever the body says of tenants", async () => {
    const response = await put({ entries: [{ word: ' vidbot ', say: 'vid bot' }] });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ entries: [{ word: 'vidbot', say: 'vid bot' }], updated_at: expect.any(String) });
    const stored = documents.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(stored).toEqual([
      { TableName: 'lexicons', Item: { tenantId: 'acct_test', entries: [{ word: 'vidbot', say: 'vid bot' }], updatedAt: expect.any(String) } },
    ]);
  });

  it('PUT with no entries removes the lexicon; a bad body stores nothing and names the field', async () => {
    documents.on(DeleteCommand).resolves({});
    expect((await put({ entries: [] })).json).toEqual({ entries: [], updated_at: null });
    expect(documents.commandCalls(DeleteCommand).map((c) => c.args[0].input)).toEqual([{ TableName: 'lexicons', Key: { tenantId: 'acct_test' } }]);
    const refused = await put({ entries: [{ word: 'x', say: '' }], tenant_id: 'acct_other' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json.error.details).toEqual([
      { path: 'entries[0].say', message: 'must not be empty' },
      { path: 'tenant_id', message: 'is not a lexicon field (entries)' },
    ]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it("GET reads the caller's own lexicon; none is an empty one", async () => {
    documents.on(GetCommand, { TableName: 'lexicons' }).resolves({});
    expect((await invoke(lexicon, restEvent({ method: 'GET', path: '/v1/lexicon' }))).json).toEqual({ entries: [], updated_at: null });
    expect(documents.commandCalls(GetCommand).at(-1)!.args[0].input).toMatchObject({ TableName: 'lexicons', Key: { tenantId: 'acct_test' } });
  });
});
