import { DynamoAccountStore } from '#commons/aws/dynamo-stores';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { readFields } from '#commons/body';
import { dynamoClient, s3UploadSigningClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { toStartedUpload } from '#commons/presenters/upload';
import { newId } from '#domain/api-keys';
import { limits } from '#domain/limits';
import { parseUploadRequest, startUpload, withdrawUpload } from '#domain/uploads';

const config = loadConfig({ tables: ['uploads', 'accounts'], bucket: true });
const deps = {
  uploads: new DynamoUploadStore(dynamoClient(), config.tables.uploads),
  accounts: new DynamoAccountStore(dynamoClient(), config.tables.accounts),
  objects: new S3ObjectStore(s3UploadSigningClient(), config.bucket),
  now: () => new Date(),
  newUploadId: () => newId('upl'),
};

export const handler = httpHandler({
  'POST /v1/uploads': async (request) => {
    const started = await startUpload(request.caller.tenantId, parseUploadRequest(await readFields(request, limits.maxBodyBytes)), deps);
    logger.info('upload started', { upload_id: started.upload.uploadId, kind: started.upload.kind, size: started.upload.sizeBytes });
    return json(201, toStartedUpload(started));
  },
  'DELETE /v1/uploads/{id}': async (request) => {
    const uploadId = request.pathParams.id ?? '';
    await withdrawUpload(request.caller.tenantId, uploadId, deps);
    logger.info('upload withdrawn', { upload_id: uploadId });
    // A body rather than 204, as DELETE /v1/video/{id}: the public client reads every answer as JSON.
    return json(200, { upload_id: uploadId, deleted: true });
  },
});
