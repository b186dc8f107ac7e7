// The words of the condition language with one-line descriptions: the parser checks names
// against these lists and the language server offers them for completion and hover.

import type { FunctionName } from './syntax.ts';

export interface ContextDescription {
  /** As written in a condition; `<key>` stands for any tag key. */
  path: string;
  description: string;
}

export interface FunctionDescription {
  name: FunctionName;
  signature: string;
  arity: number;
  description: string;
}

export interface KeywordDescription {
  keyword: string;
  description: string;
}

export const CONDITION_CONTEXTS: readonly ContextDescription[] = [
  { path: 'flow.name', description: 'Name of the flow the artifact was attested in; null when it has no provenance.' },
  { path: 'flow.tags.<key>', description: 'Value of the flow tag <key>; null when the flow has no such tag.' },
  { path: 'artifact.name', description: 'Name of the running artifact as reported (for K8S, the image reference).' },
  { path: 'artifact.fingerprint', description: 'SHA-256 fingerprint (64 hex characters) of the running artifact.' },
];

export const CONDITION_FUNCTIONS: readonly FunctionDescription[] = [
  {
    name: 'exists',
    signature: 'exists(value)',
    arity: 1,
    description: 'True when the value is not null, e.g. exists(flow.tags.team).',
  },
  {
    name: 'matches',
    signature: 'matches(text, regex)',
    arity: 2,
    description:
      'True when the regular expression (JavaScript syntax) finds a match in the text (anchor it with ^ and $ for a whole match). Patterns run in linear time: lookaround and backreferences are refused.',
  },
];

export const CONDITION_KEYWORDS: readonly KeywordDescription[] = [
  { keyword: 'and', description: 'True when both sides are true.' },
  { keyword: 'or', description: 'True when either side is true.' },
  { keyword: 'not', description: 'Negates the condition that follows; `x not in [...]` tests absence.' },
  {
    keyword: 'in',
    description: 'True when the left value is an item of the list (or a substring of the text) on the right.',
  },
  { keyword: 'true', description: 'The boolean true.' },
  { keyword: 'false', description: 'The boolean false.' },
  { keyword: 'null', description: 'No value; missing tags and fields read as null.' },
];

export const CONDITION_OPERATORS: readonly KeywordDescription[] = [
  { keyword: '==', description: 'Equal (a number and a numeric string compare as numbers).' },
  { keyword: '!=', description: 'Not equal.' },
  { keyword: '<', description: 'Less than (numbers numerically, strings alphabetically).' },
  { keyword: '>', description: 'Greater than.' },
  { keyword: '<=', description: 'Less than or equal.' },
  { keyword: '>=', description: 'Greater than or equal.' },
];
