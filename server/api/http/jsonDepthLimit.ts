// JSON nested without bound overflows the stack wherever it is walked recursively (schema checks,
// rendering, storage), which turned a bad request into a 500. Bodies are refused at the door
// instead; the limit (shared/limits.ts, the one JSON documents are held to in the editor and
// cev validate) is far above any real payload and above what custom-type rules judge.
import { limits } from '../../../shared/limits.ts';
import { nestsDeeperThan } from '../../../shared/text/values.ts';
import { invalid, withInput } from '../errors.ts';

const MAX_JSON_DEPTH = limits.jsonDepth;

/** Throws the spec's validation error, keyed by `field`, when `value` nests too deeply. */
export function refuseDeepJson(value: unknown, field: string): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw invalid({ [field]: withInput(`JSON should be nested at most ${MAX_JSON_DEPTH} levels deep`, '…') });
  }
}
