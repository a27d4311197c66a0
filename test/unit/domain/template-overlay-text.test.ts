import { describe, expect, it } from 'vitest';
import { parseCreateVideo } from '#domain/create-request';
import { fieldsFromTemplate, parseTemplate, type TemplateRecord } from '#domain/templates';

const record = (body: Record<string, unknown>): TemplateRecord => {
  const saved = parseTemplate('promo', body);
  return { tenantId: 't1', uid: saved.uid, name: saved.name, request: saved.request, variables: saved.variables, createdAt: '', updatedAt: '' };
};

describe('a template variable in an overlay text', () => {
  it('is shown as written: no speech-markup escaping in text overlays (they read no markup)', () => {
    const template = record({
      name: 'x',
      clips: [{ bot_uid: 'bot_ava', text: 'Hello.', overlays: [{ type: 'text', style: 'lower_third', text: '{{company}}' }] }],
    });
    const fields = fieldsFromTemplate(template, { company: 'Tom & Jerry <Ltd>' });
    const command = parseCreateVideo({ ...fields, webhook: 'https://e.com/h' });
    const clip = command.clips[0] as { overlays: { text: string }[] };
    expect(clip.overlays[0]!.text).toBe('Tom & Jerry <Ltd>');
  });
});
