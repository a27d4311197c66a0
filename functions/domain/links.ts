/** Download links in API responses and webhook events are presigned and last a week (S3's SigV4 maximum). */
export const DOWNLOAD_LINK_SECONDS = 7 * 24 * 3600;

export const outputFileName = (videoId: string, kind: 'video' | 'audio') => `${videoId}.${kind === 'video' ? 'mp4' : 'mp3'}`;
