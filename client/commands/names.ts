// Name rules the user can break in an input box, checked before a round trip (reference §1.7).

const FLOW_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;
const ENVIRONMENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_]*$/;

export function flowNameProblem(name: string): string | undefined {
  return FLOW_NAME.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _ ~';
}

export function environmentNameProblem(name: string): string | undefined {
  return ENVIRONMENT_NAME.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _';
}

/** `backend.flow-template.yml` → `backend`; a name that is only the kind gives undefined. */
export function flowNameFromFile(fileName: string): string | undefined {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.(ya?ml)$/i, '');
  const name = base.replace(/[._-]?flow-template[._-]?/i, '').replace(/[^a-zA-Z0-9.\-_~]/g, '-');
  return name !== '' && FLOW_NAME.test(name) ? name : undefined;
}
