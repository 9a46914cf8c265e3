/**
 * The longest wait a timer can hold: what every delay (`withDelay`, a stream's `delay`,
 * `delayBetween`) is bounded by.
 * @module
 */

/**
 * 2^31 - 1 ms, about 24.8 days: Node fires a longer timer after 1 ms, with a
 * `TimeoutOverflowWarning` on stderr.
 */
export const MAX_DELAY_MS = 2_147_483_647;
