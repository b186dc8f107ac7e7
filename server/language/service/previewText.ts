// What the previews say: lens titles, the lists behind them and the rule hovers, from the
// server's template-impact and policy-dry-run answers (shared/contract/preview.ts). Pure text.
import type { PathSegment } from '../../../shared/findings.ts';
import type { PolicyDryRun, SlotChange, TemplateImpact } from '../../../shared/contract/types.ts';
import type { PreviewItem } from '../../../shared/protocol.ts';

const STATES = ['COMPLIANT', 'INCOMPLETE', 'NON-COMPLIANT'] as const;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `fix 2 errors first`: previews never judge a document the server would refuse. */
export function errorsTitle(count: number): string {
  return `fix ${plural(count, 'error', 'errors')} first`;
}

/** `flow backend · 37 trails: 30 stay COMPLIANT, 5 become INCOMPLETE, 2 become NON-COMPLIANT`. */
export function impactTitle(impact: TemplateImpact): string {
  if (impact.trails === 0) return `flow ${impact.flow} · no trails yet`;
  const parts: string[] = [];
  for (const state of STATES) {
    let stay = 0;
    let become = 0;
    for (const transition of impact.transitions) {
      if (transition.after !== state) continue;
      if (transition.before === state) stay += transition.count;
      else become += transition.count;
    }
    if (stay > 0) parts.push(`${stay} ${stay === 1 ? 'stays' : 'stay'} ${state}`);
    if (become > 0) parts.push(`${become} ${become === 1 ? 'becomes' : 'become'} ${state}`);
  }
  return `flow ${impact.flow} · ${plural(impact.trails, 'trail', 'trails')}: ${parts.join(', ')}`;
}

function slotName(change: SlotChange): string {
  if (change.artifact === null) return change.attestation ?? '';
  return change.attestation === null ? `artifact ${change.artifact}` : `${change.artifact} / ${change.attestation}`;
}

/** The changed trails: verdict before → after, and each slot that changes. */
export function impactItems(impact: TemplateImpact): PreviewItem[] {
  const items: PreviewItem[] = impact.changed.map((trail) => ({
    label: trail.trail,
    description: trail.before === trail.after ? `stays ${trail.after}` : `${trail.before} → ${trail.after}`,
    detail: trail.changed_slots
      .map((change) => `${slotName(change)}: ${change.before ?? '—'} → ${change.after ?? '—'}`)
      .join('; '),
  }));
  const unlisted = impact.changed_total - impact.changed.length;
  if (unlisted > 0) items.push({ label: `… and ${plural(unlisted, 'more trail', 'more trails')}` });
  return items;
}

/** `prod · latest snapshot: 12 compliant, 3 would be non-compliant`. */
export function dryRunTitle(run: PolicyDryRun): string {
  if (run.snapshot_index === null) return `${run.environment} · no snapshot yet`;
  return `${run.environment} · latest snapshot: ${run.compliant} compliant, ${run.non_compliant} would be non-compliant`;
}

/** The running artifacts, the non-compliant first, each with why. */
export function dryRunItems(run: PolicyDryRun): PreviewItem[] {
  const ordered = [...run.artifacts].sort((a, b) => Number(a.compliant) - Number(b.compliant));
  return ordered.map((artifact) => ({
    label: artifact.name,
    description: artifact.allowed ? 'compliant (allowed)' : artifact.compliant ? 'compliant' : 'would be non-compliant',
    detail: artifact.failing_rules.map((rule) => rule.reason).join('; ') || undefined,
  }));
}

/** Every failing rule's artifacts across environments, keyed by the rule's path in the document. */
export function failuresByRule(runs: readonly PolicyDryRun[]): Map<string, string[]> {
  const byRule = new Map<string, string[]>();
  for (const run of runs) {
    for (const artifact of run.artifacts) {
      for (const rule of artifact.failing_rules) {
        const key = JSON.stringify(rule.path);
        const line = `${run.environment}: ${artifact.name}${artifact.allowed ? ' (allowed)' : ''} — ${rule.reason}`;
        const lines = byRule.get(key);
        if (lines === undefined) byRule.set(key, [line]);
        else lines.push(line);
      }
    }
  }
  return byRule;
}

/** The failing rule that holds `path` (the rule itself or anything inside it), as its key. */
export function ruleKeyAt(path: readonly PathSegment[], failures: ReadonlyMap<string, string[]>): string | undefined {
  for (const length of [3, 2]) {
    if (path.length < length) continue;
    const key = JSON.stringify(path.slice(0, length));
    if (failures.has(key)) return key;
  }
  return undefined;
}

const SHOWN_FAILURES = 10;

/** Markdown for a rule's hover: how many artifacts it fails, where and why. */
export function ruleFailureMarkdown(lines: readonly string[]): string {
  const shown = lines.slice(0, SHOWN_FAILURES).map((line) => `- ${escapeMarkdown(line)}`);
  if (lines.length > SHOWN_FAILURES) shown.push(`- … and ${lines.length - SHOWN_FAILURES} more`);
  return [`**Dry-run:** this rule fails ${plural(lines.length, 'artifact', 'artifacts')}`, '', ...shown].join('\n');
}

/** Names and reasons come from reports: shown as text, never as markup. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, (character) => `\\${character}`);
}
