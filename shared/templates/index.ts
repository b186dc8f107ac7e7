export { checkTemplate } from './check.ts';
export { parseTemplate } from './parse.ts';
export { attestationTypes, isAttestationType, templateOf } from './model.ts';
export type { FlowTemplate, TemplateArtifact, TemplateAttestation } from './model.ts';
