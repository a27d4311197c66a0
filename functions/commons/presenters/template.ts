/** How callers see a template (PUT, GET /v1/templates/{uid}, GET /v1/templates). */
import type { TemplateRecord } from '#domain/templates';

export const toPublicTemplate = (template: TemplateRecord, baseUrl: string) => ({
  uid: template.uid,
  name: template.name,
  ...template.request,
  variables: template.variables.map((v) => ({ name: v.name, required: v.required, ...(v.default !== undefined && { default: v.default }) })),
  created_at: template.createdAt,
  updated_at: template.updatedAt,
  videos_url: `${baseUrl}/v1/templates/${template.uid}/videos`,
});
