// Name rules the user can break in an input box, checked before a round trip (reference §1.7).

import { environmentName, flowName } from '../../shared/names.ts';

export function flowNameProblem(name: string): string | undefined {
  return flowName.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _ ~';
}

export function environmentNameProblem(name: string): string | undefined {
  return environmentName.test(name) ? undefined : 'Start with a letter or digit; then letters, digits, . - _';
}

export { flowNameFromFile } from '../../shared/documentNames.ts';
