// A flow template from its text: the normalized model when it is valid, and every finding.
import type { Finding } from '../findings.ts';
import { validateText } from '../validate.ts';
import { templateOf } from './model.ts';
import type { FlowTemplate } from './model.ts';

export function parseTemplate(text: string): { template?: FlowTemplate; findings: Finding[] } {
  const { value, findings } = validateText('flow-template', text);
  if (findings.some((finding) => finding.severity === 'error')) return { findings };
  return { template: templateOf(value), findings };
}
