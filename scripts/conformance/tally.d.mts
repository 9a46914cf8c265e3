// Types for tally.mjs (test/conformance/tally.test.ts imports it).
export interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}
export interface ScenarioState {
  failing: string[];
  ran: boolean;
  skipped: boolean;
}
export type Buckets = Map<string, Map<string, ScenarioState>>;
export type RunScenarios = Map<string, Check[] | string>;
export function readChecks(dir: string): RunScenarios | string;
export function addRun(buckets: Buckets, revision: string, scenarios: RunScenarios): void;
export function anyFailing(scenarios: RunScenarios): boolean;
export function tally(buckets: Buckets, broken: boolean): { lines: string[]; summary: string; ok: boolean };
