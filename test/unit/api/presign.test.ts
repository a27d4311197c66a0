import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { S3ObjectStore } from '#commons/aws/s3-objects';

const store = (expiration?: Date) =>
  new S3ObjectStore(
    new S3Client({
      region: 'eu-west-1',
      credentials: async () => ({ accessKeyId: 'AKIA', secretAccessKey: 'secret', sessionToken: expiration ? 'token' : undefined, expiration }),
    }),
    'media',
  );

describe('presigned download links', () => {
  it('last the week asked for when the signing credentials do', async () => {
    const link = await store().presignGet('outputs/a/vid_1.mp4', 7 * 24 * 3600, 'vid_1.mp4');
    expect(new URL(link.url).searchParams.get('X-Amz-Expires')).toBe(String(7 * 24 * 3600));
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 5000);
    expect(new URL(link.url).searchParams.get('response-content-disposition')).toBe('attachment; filename="vid_1.mp4"');
  });

  it('say they end when temporary credentials (a Lambda role) end, and are signed for no longer', async () => {
    const inAnHour = new Date(Date.now() + 3600 * 1000);
    const link = await store(inAnHour).presignGet('outputs/a/vid_1.mp4', 7 * 24 * 3600);
    const signedFor = Number(new URL(link.url).searchParams.get('X-Amz-Expires'));
    expect(signedFor).toBeLessThanOrEqual(3600 - 60);
    expect(signedFor).toBeGreaterThan(3400);
    expect(Date.parse(link.expiresAt)).toBeLessThan(inAnHour.getTime());
  });
});
