/**
 * When an event whose first attempt was never recorded (lost between two writes, e.g. a crash after a video
 * finished or a bot settled) is sent again. The sweeper comes first; a caller's redelivery of such an event waits
 * longer, so the two never both start a chain of attempts (test/api asserts the order).
 */

/** After a video finishes or a bot settles, its event's first attempt must be recorded within this, or the sweeper queues the event again. */
export const SWEEPER_RESENDS_AFTER_SECONDS = 300;

/** A caller's redelivery (POST …/redeliver) of an event never attempted is accepted only this long after it was due. */
export const CALLER_RESENDS_AFTER_SECONDS = 600;
