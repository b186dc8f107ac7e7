// Measured figures the suite reports next to its counts (results.json, printed by the runner).
import { say } from './log.ts';

export const figures: Record<string, string> = {};

export function record(name: string, value: string): void {
  figures[name] = value;
  say(`    [figure] ${name}: ${value}`);
}
