// The resource a document stands for, by its file name: `backend.flow-template.yml` is the
// template of flow `backend`, `prod.env-policy.yaml` the policy `prod`. The extension's upload
// command and the language server's previews read names the same way.

import { flowName } from './names.ts';

/** The file name without folders or the YAML extension. */
function baseOf(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, '').replace(/\.(ya?ml)$/i, '');
}

/** `backend.flow-template.yml` → `backend`; a name that is only the kind gives undefined. */
export function flowNameFromFile(fileName: string): string | undefined {
  const name = baseOf(fileName)
    .replace(/[._-]?flow-template[._-]?/i, '')
    .replace(/[^a-zA-Z0-9.\-_~]/g, '-');
  return name !== '' && flowName.test(name) ? name : undefined;
}

/** `prod.env-policy.yaml` → `prod`; a name that is only the kind gives undefined. */
export function policyNameFromFile(fileName: string): string | undefined {
  const name = baseOf(fileName)
    .replace(/[._-]?env-policy[._-]?/i, '')
    .replace(/[^a-zA-Z0-9.\-_~]/g, '-');
  return name !== '' && flowName.test(name) ? name : undefined;
}
