// What a person is shown of compliance, on every face (the server's pages, the VS Code tree and
// detail views, the audit log CSV): one word per state, its colour and a one-line reason. The
// API's fields stay as the spec says (a snapshot judged by no policy is `compliant: false`,
// reference §4.4, and the environment's `state` null); this is how they read, so no face shows a
// red NON-COMPLIANT for what nothing judged. Each face maps the colour token onto its own palette:
// the pages onto a CSS variable, VS Code onto a ThemeColor.

/** Every compliance state a face shows, by the word it is shown as. */
export type ShownState =
  'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE' | 'MISSING' | 'NO POLICY' | 'NOT REPORTED' | 'UNKNOWN';

/** A colour by what it means; never the only sign of a state, which always shows its word. */
export type StateColour = 'passed' | 'failed' | 'pending' | 'neutral';

/** A state as shown: its word, its colour, and why it is so, in one line. */
export interface Verdict {
  state: ShownState;
  colour: StateColour;
  reason: string;
}

/** Each state's colour and what it means when nothing more particular is known. */
export const SHOWN_STATES: Readonly<Record<ShownState, { colour: StateColour; meaning: string }>> = {
  COMPLIANT: { colour: 'passed', meaning: 'Everything it is judged by holds.' },
  'NON-COMPLIANT': { colour: 'failed', meaning: 'Something it is judged by fails.' },
  INCOMPLETE: { colour: 'pending', meaning: 'Evidence the template asks for has not been reported yet.' },
  MISSING: { colour: 'neutral', meaning: 'Nothing has been reported for it yet.' },
  'NO POLICY': { colour: 'neutral', meaning: 'No policy is attached, so nothing judges what runs here.' },
  'NOT REPORTED': { colour: 'neutral', meaning: 'Nothing has been reported yet, so there is nothing to judge.' },
  UNKNOWN: { colour: 'neutral', meaning: 'The server gave no verdict.' },
};

export function verdictOf(state: ShownState, reason: string = SHOWN_STATES[state].meaning): Verdict {
  return { state, colour: SHOWN_STATES[state].colour, reason };
}

const TRAIL_REASONS: Readonly<Record<string, string>> = {
  COMPLIANT: 'Every attestation the template asks for is reported and compliant.',
  'NON-COMPLIANT': 'An attestation of the trail is non-compliant.',
  INCOMPLETE: 'An attestation the template asks for has not been reported yet.',
};

/** A trail verdict the API answered (COMPLIANT, NON-COMPLIANT, INCOMPLETE) with the reason `reasons` gives it. */
function stateVerdict(state: unknown, reasons: Readonly<Record<string, string>>, otherwise: string): Verdict {
  return typeof state === 'string' && Object.hasOwn(reasons, state)
    ? verdictOf(state as ShownState, reasons[state])
    : verdictOf('UNKNOWN', otherwise);
}

/** A trail's `compliance_state` (a flow's `latest_state`): its verdict over the template's slots. */
export function trailVerdict(state: unknown): Verdict {
  return stateVerdict(state, TRAIL_REASONS, 'The trail has no verdict yet.');
}

const ARTIFACT_REASONS: Readonly<Record<string, string>> = {
  COMPLIANT: 'The trail it was attested in is compliant.',
  'NON-COMPLIANT': 'The trail it was attested in is non-compliant.',
  INCOMPLETE: 'The trail it was attested in still misses evidence the template asks for.',
};

/** An artifact's `state`: the verdict of the trail it was attested in (reference §3.3). */
export function artifactVerdict(state: unknown): Verdict {
  return stateVerdict(state, ARTIFACT_REASONS, 'The artifact has no verdict yet.');
}

/** An attestation's `is_compliant`: its evidence against the rule of its type. */
export function attestationVerdict(isCompliant: unknown): Verdict {
  if (isCompliant === true) return verdictOf('COMPLIANT', "Its evidence meets its type's rule.");
  if (isCompliant === false) return verdictOf('NON-COMPLIANT', "Its evidence fails its type's rule.");
  return verdictOf('UNKNOWN', 'The attestation has no verdict.');
}

/** Artifacts by compliance, as `artifact_compliance_count` counts them. */
export interface ComplianceCounts {
  compliant: number;
  nonCompliant: number;
  unknown: number;
}

function artifacts(count: number): string {
  return count === 1 ? '1 running artifact' : `${count} running artifacts`;
}

/**
 * A snapshot's `compliant`, read with the number of policies that judged it: without one the
 * snapshot is `compliant: false` on the wire but NO POLICY here.
 */
export function snapshotVerdict(compliant: unknown, policies: number, counts: ComplianceCounts): Verdict {
  const running = counts.compliant + counts.nonCompliant + counts.unknown;
  if (policies === 0)
    return verdictOf(
      'NO POLICY',
      running === 0
        ? 'No policy is attached to the environment, and nothing runs.'
        : `No policy is attached to the environment, so its ${artifacts(running)} ${running === 1 ? 'is' : 'are'} not judged.`,
    );
  if (compliant === true)
    return verdictOf(
      'COMPLIANT',
      running === 0
        ? 'Nothing runs, so nothing fails the attached policies.'
        : running === 1
          ? 'The 1 running artifact meets the attached policies.'
          : `All ${running} running artifacts meet the attached policies.`,
    );
  if (compliant === false)
    return verdictOf(
      'NON-COMPLIANT',
      counts.nonCompliant > 0
        ? `${counts.nonCompliant} of ${artifacts(running)} ${counts.nonCompliant === 1 ? 'fails' : 'fail'} the attached policies.`
        : `${counts.unknown} of ${artifacts(running)} could not be judged.`,
    );
  return verdictOf('UNKNOWN', 'The snapshot has no verdict.');
}

/** A snapshot as its list names it (`compliant` without counts), judged or not by a policy. */
export function listedSnapshotVerdict(compliant: unknown, judged: boolean): Verdict {
  if (!judged) return verdictOf('NO POLICY', 'No policy judged this snapshot, so what ran in it was not judged.');
  if (compliant === true) return verdictOf('COMPLIANT', 'Everything running in it met the attached policies.');
  if (compliant === false) return verdictOf('NON-COMPLIANT', 'Something running in it failed the attached policies.');
  return verdictOf('UNKNOWN', 'The snapshot has no verdict.');
}

/**
 * An environment's `state` (its latest snapshot's compliance, null without a snapshot or a
 * policy), told apart by what is missing. `latest` is the latest snapshot's verdict, when read.
 */
export function environmentVerdict(state: unknown, policies: number, snapshots: number, latest?: Verdict): Verdict {
  if (state === true || state === false) {
    const shown: ShownState = state ? 'COMPLIANT' : 'NON-COMPLIANT';
    const detail =
      latest?.state === shown
        ? latest.reason
        : state
          ? 'It meets the attached policies.'
          : 'Something in it fails the attached policies.';
    return verdictOf(shown, `Latest snapshot: ${detail}`);
  }
  if (policies === 0)
    return verdictOf(
      'NO POLICY',
      snapshots === 0
        ? 'No policy is attached and nothing has been reported yet.'
        : 'No policy is attached, so nothing judges what runs here. Attach one to get a verdict.',
    );
  if (snapshots === 0) return verdictOf('NOT REPORTED', 'Nothing has been reported yet, so there is nothing to judge.');
  return verdictOf('UNKNOWN', 'The environment has no verdict yet.');
}

/** An artifact of a snapshot: its `compliant`, and when it fails, the first of its reasons. */
export function runningArtifactVerdict(compliant: unknown, judged: boolean, reasons: readonly string[]): Verdict {
  if (!judged) return verdictOf('NO POLICY', 'No policy is attached to the environment, so nothing judges it.');
  if (compliant === true) return verdictOf('COMPLIANT', 'It meets every attached policy.');
  if (compliant === false) return verdictOf('NON-COMPLIANT', reasons[0] ?? 'It fails an attached policy.');
  return verdictOf('UNKNOWN', 'The artifact has no verdict.');
}

/** A snapshot's artifacts by compliance in words; without a policy, how many nothing judged. */
export function countsText(counts: ComplianceCounts, judged: boolean): string {
  if (!judged) {
    const running = counts.compliant + counts.nonCompliant + counts.unknown;
    return `${artifacts(running)}, not judged (no policy)`;
  }
  return `${counts.compliant} compliant, ${counts.nonCompliant} non-compliant, ${counts.unknown} unknown`;
}
