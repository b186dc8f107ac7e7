// Name rules the user can break in an input box, checked before a round trip (reference §1.7).

const FLOW_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;
const ENVIRONMENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_]*$/;

export function flowNameProblem(name: string): string | undefined {
  return FLOW_NAME.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _ ~';
}

export function environmentNameProblem(name: string): string | undefined {
  return ENVIRONMENT_NAME.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _';
}

export { flowNameFromFile } from '../../shared/documentNames.ts';
