import type { DevnetDescription } from './playwright';
export type { DevnetDescription } from './playwright';

export const ROOT: string;
export interface Devnet {
  description: DevnetDescription;
  /** The scripts' log file (null with `verbose`). */
  log: string | null;
  /** Resolves when the devnet's script exits. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Stops exactly the processes it started. */
  stop(): Promise<void>;
}
export function startDevnet(options?: { timeoutMs?: number; verbose?: boolean; build?: boolean }): Promise<Devnet>;
