/** Names for the generated types the SDK's methods take and give (all from the OpenAPI document). */
import type { components, operations } from './generated/openapi.ts';

type Schemas = components['schemas'];
type JsonBody<O, S extends number = 200> = O extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;

export type CreateVideoRequest = Schemas['CreateVideoRequest'];
/** A clip of a create request: a bot saying text (`SpokenClip`), or a kept clip named by its `clip_uid`. */
export type Clip = Exclude<CreateVideoRequest['clips'], string>[number];
export type SpokenClip = Extract<Clip, { bot_uid: string }>;
export type CreatedVideo = Schemas['CreatedVideo'];
export type Video = Schemas['Video'];
export type VideoStatus = Video['status'];
export type VideoEvent = Schemas['VideoEvent'];
export type TemplateRequest = Schemas['TemplateRequest'];
export type CreatedBatch = Schemas['CreatedBatch'];
export type Batch = Schemas['Batch'];
export type BatchDryRun = Schemas['BatchDryRun'];
export type Voice = JsonBody<operations['listVoices']>['voices'][number];
