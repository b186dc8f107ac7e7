// A flow template from its text: the normalized model when it is valid, and every finding.
import type { Finding } from '../findings.ts';
import { parseYaml, placeIssues } from '../text/parse.ts';
import { checkTemplate } from './check.ts';
import { templateOf } from './model.ts';
import type { FlowTemplate } from './model.ts';

export function parseTemplate(text: string): { template?: FlowTemplate; findings: Finding[] } {
  const parsed = parseYaml(text);
  if (parsed.broken) return { findings: parsed.syntax };
  const findings = placeIssues(parsed, checkTemplate(parsed.value));
  if (findings.some((finding) => finding.severity === 'error')) return { findings };
  return { template: templateOf(parsed.value), findings };
}
