// How the artifacts running in an environment stand against a control (reference §8.4, coverage):
// read from the policy decisions its latest snapshot stored, so the answer is what the policies
// said when the snapshot was judged. An artifact counts when one of its policies has a rule asking
// for a decision on the control (`for_control`) that applied to it; it is covered when every such
// rule held.

/** What a snapshot stored of one running artifact, as far as coverage reads it. */
export interface JudgedArtifact {
  policy_decisions: unknown[];
}

export interface CoverageCounts {
  running: number;
  covered: number;
  not_covered: number;
}

interface StoredEvaluation {
  rule?: { definition?: { for_control?: unknown } };
  satisfied?: unknown;
  ignored?: unknown;
}

/** The rules of the artifact's decisions that ask for a decision on `identifier`, as held or not. */
function controlRulesHeld(identifier: string, artifact: JudgedArtifact): boolean[] {
  return artifact.policy_decisions.flatMap((decision) => {
    const evaluations = (decision as { rule_evaluations?: unknown }).rule_evaluations;
    if (!Array.isArray(evaluations)) return [];
    return (evaluations as StoredEvaluation[])
      .filter((evaluation) => evaluation.rule?.definition?.for_control === identifier && evaluation.ignored !== true)
      .map((evaluation) => evaluation.satisfied === true);
  });
}

/** The counts of the running artifacts of one snapshot. */
export function coverageCounts(identifier: string, running: readonly JudgedArtifact[]): CoverageCounts {
  const counts: CoverageCounts = { running: 0, covered: 0, not_covered: 0 };
  for (const artifact of running) {
    const held = controlRulesHeld(identifier, artifact);
    if (held.length === 0) continue;
    counts.running += 1;
    if (held.every(Boolean)) counts.covered += 1;
    else counts.not_covered += 1;
  }
  return counts;
}
