/** The ids of a batch and of its rows' videos: one source for their format (the send check sizes records by it). */
import { randomBytes } from 'node:crypto';

/** A new batch's id: time first, so an account's batches list newest first by id. */
export const newBatchId = () => `bat_${Date.now().toString(36).padStart(9, '0')}${randomBytes(9).toString('base64url')}`;

/** The video of a row: derived, so that a look done twice finds the videos the first one made. */
export const rowVideoId = (batchId: string, row: number) => `vid_${batchId.slice('bat_'.length)}_r${row}`;
