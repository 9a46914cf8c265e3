/**
 * Seeded randomness for delays, so a run with the same seed waits the same way.
 * @module
 */
import type { Delay } from "./stub.js";
import { MAX_DELAY_MS } from "../values/max-delay.js";

/** A small, fast, seedable generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}


/** Milliseconds to wait for a delay, drawing from `random` for distributions (at most MAX_DELAY_MS). */
export function drawDelay(delay: Delay, random: () => number): number {
  if (typeof delay === "number") return Math.min(delay, MAX_DELAY_MS);
  if (delay.distribution === "uniform") return Math.min(delay.min + (delay.max - delay.min) * random(), MAX_DELAY_MS);
  // Box-Muller: a standard normal from two uniforms, then exp for the log-normal.
  const u = 1 - random();
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  // A wide sigma draws a tail past what a timer holds: the longest wait is the cap.
  return Math.min(delay.median * Math.exp(delay.sigma * normal), MAX_DELAY_MS);
}
