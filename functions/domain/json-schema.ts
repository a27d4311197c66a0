import { z } from 'zod';

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 takes it) of what a zod schema accepts: its input side. A field whose
 * lenient parse has no schema of its own documents itself with `.meta({...})`; `docDefault` there becomes the
 * field's `default` (zod keeps `default` for its own defaults only).
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...fragment } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      const docDefault = (z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType) as { docDefault?: unknown } | undefined)?.docDefault;
      if (docDefault !== undefined) {
        ctx.jsonSchema.default = docDefault as never;
        delete (ctx.jsonSchema as Record<string, unknown>).docDefault;
      }
    },
  });
  return fragment;
}
