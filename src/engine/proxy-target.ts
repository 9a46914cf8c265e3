/**
 * Moved to `src/proxy-target.ts`, beside the options that name it (issue 43: the options and
 * the engine imported each other). Re-exported here for code written before the move; import
 * from `../proxy-target.js`.
 * @module
 */
export { proxyTargetProblems, upstreamName, type ProxyTarget } from "../proxy-target.js";
