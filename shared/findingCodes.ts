// What each finding code means, for people: the rules a code-scanning view lists beside the
// findings of `cev validate --format sarif`, and the list of codes in the README. A code is
// `<document>/<rule>`: the rules of a document's schema are the same words for every document
// (shared/schemas/issues.ts), the others are the document's own.

export interface CodeDescription {
  /** What is wrong, in a few words: a view's title for the rule. */
  short: string;
  /** What the rule checks and how to put it right. */
  full: string;
}

/** The documents a code's first part names, as a sentence names them. */
const documents: Readonly<Record<string, string>> = {
  template: 'a flow template',
  policy: 'an environment policy',
  scan: 'a scan attestation',
  report: 'an environment report',
  attestation: 'an attestation',
  body: 'a request body',
};

/** The rules of every schema, by the second part of their codes (shared/schemas/issues.ts names them). */
const schemaRules: Readonly<Record<string, (document: string) => CodeDescription>> = {
  'missing-field': (document) => ({
    short: 'A required field is missing',
    full: `A field the schema of ${document} requires is missing; the server refuses the upload with "Field required" for that field. Add the field.`,
  }),
  'unknown-key': (document) => ({
    short: 'A key the schema does not know',
    full: `${capitalized(document)} has a key its schema does not allow ("Extra inputs are not permitted"), often a misspelt one. Remove or rename it.`,
  }),
  'bad-key': (document) => ({
    short: 'A key of the wrong form',
    full: `A key of ${document} does not have the form its schema requires for keys of that object. Rename it.`,
  }),
  'wrong-type': (document) => ({
    short: 'A value of the wrong type',
    full: `A value of ${document} is not of the type its schema requires (a string where a list is expected, ...). Give a value of that type.`,
  }),
  'bad-pattern': (document) => ({
    short: 'A value that does not match its pattern',
    full: `A string of ${document} does not match the pattern its schema requires (a name, a fingerprint, a commit). Write it in that form.`,
  }),
  'bad-value': (document) => ({
    short: 'A value that is not one of those allowed',
    full: `A value of ${document} is not one of the values its schema allows. Choose one of them.`,
  }),
  'bad-format': (document) => ({
    short: 'A value not in its format',
    full: `A string of ${document} is not in the format its schema requires (a date-time, a URL, ...). Write it in that format.`,
  }),
  'too-short': (document) => ({
    short: 'A string that is too short',
    full: `A string of ${document} is shorter than its schema allows (often empty). Give a longer one.`,
  }),
  'too-long': (document) => ({
    short: 'A string that is too long',
    full: `A string of ${document} is longer than its schema allows. Shorten it.`,
  }),
  'too-few-items': (document) => ({
    short: 'A list with too few items',
    full: `A list of ${document} has fewer items than its schema requires. Add items.`,
  }),
  'too-many-items': (document) => ({
    short: 'A list with too many items',
    full: `A list of ${document} has more items than its schema allows. Remove items.`,
  }),
  'out-of-range': (document) => ({
    short: 'A number out of its range',
    full: `A number of ${document} is outside the range its schema allows. Give one inside it.`,
  }),
  invalid: (document) => ({
    short: 'A value the schema refuses',
    full: `A value of ${document} breaks a rule of its schema. The message says which.`,
  }),
};

/** Codes of one document only, and those of every document (syntax, limits). */
const ownRules: Readonly<Record<string, CodeDescription>> = {
  'json/syntax': {
    short: 'JSON that cannot be read',
    full: 'The document is not valid JSON (a missing comma, quote or bracket). Nothing else is checked until it reads.',
  },
  'yaml/syntax': {
    short: 'YAML that cannot be read',
    full: 'The document is not valid YAML (indentation, a missing quote, a tab, an unknown tag); a warning when it still reads. Nothing else is checked until it reads.',
  },
  'limits/too-large': {
    short: 'A document over the size limit',
    full: 'The document is larger than the server accepts for its kind, so it is not read at all. Split it or make it smaller.',
  },
  'limits/too-deep': {
    short: 'A document nested too deeply',
    full: 'The document nests more levels than the server reads. Flatten it.',
  },
  'limits/too-many-aliases': {
    short: 'YAML aliases that expand too far',
    full: 'The YAML aliases of the document expand to more nodes than the server reads (an alias bomb). Write the values out, or use fewer aliases.',
  },
  'limits/too-many-entries': {
    short: 'More entries than the server judges',
    full: 'The document has more entries (artifacts, attestations, rules) than the server evaluates. Split it.',
  },
  'limits/more-findings': {
    short: 'More findings than are listed',
    full: 'A file lists its first findings only; this one counts the rest. Fix those listed and check again.',
  },
  'template/missing-version': {
    short: 'A template without its version',
    full: "A flow template starts with 'version: 1'. Add it.",
  },
  'template/bad-version': {
    short: 'A template version other than 1',
    full: "Version 1 is the only flow template version. Write 'version: 1'.",
  },
  'template/empty-name': {
    short: 'An empty name',
    full: 'An artifact or attestation of the template has an empty name. Name it.',
  },
  'template/bad-name': {
    short: 'A name the API refuses',
    full: 'An artifact or attestation name of the template has characters the API does not allow in names. Rename it.',
  },
  'template/unknown-attestation-type': {
    short: 'An attestation type that does not exist',
    full: 'The template asks for an attestation of a type that is neither built in nor a custom type (custom:my-type). Use one of the types, or create the custom type.',
  },
  'template/untargetable-artifact-name': {
    short: 'An artifact no attestation can target',
    full: "An artifact's name has characters that target_artifacts cannot name, so no attestation can be reported against it. Rename it.",
  },
  'template/duplicate-name': {
    short: 'A name used twice',
    full: 'Two artifacts, or two attestations of one artifact, have the same name: the second adds nothing. Rename or remove it.',
  },
  'policy/missing-schema': {
    short: 'A policy without its _schema',
    full: 'An environment policy names its format in _schema. Add the _schema line.',
  },
  'policy/bad-schema-url': {
    short: 'A _schema that is not a policy format',
    full: "The policy's _schema is not the URL of a policy format (its path ends in /policy/environment/v1 or /policy/v1). Use that URL.",
  },
  'policy/any-name-any-type': {
    short: "A rule whose name and type are both '*'",
    full: "A rule whose name and type are both '*' matches nothing in particular. Name the attestation, or give its type.",
  },
  'policy/unmatchable-name': {
    short: 'A rule name no attestation can have',
    full: "A rule names an attestation with characters no attestation name has, so it never matches. Fix the name, or use '*' for any name.",
  },
  'policy/unmatchable-control': {
    short: 'A control identifier no control can have',
    full: 'A rule names a control identifier no control can have, so it never matches. Fix the identifier.',
  },
  'policy/for-control-without-decision': {
    short: 'for_control on a rule that is not a decision',
    full: "for_control is allowed only on rules of type 'decision'. Set type: decision, or remove for_control.",
  },
  'policy/bad-expression': {
    short: 'A condition that cannot be read',
    full: 'A ${{ }} condition of the policy has a syntax error. The message says where.',
  },
  'policy/unsupported-pattern': {
    short: 'A regular expression the server cannot match',
    full: 'A condition uses a regular expression feature the server does not support (look-arounds, back-references): it matches in linear time only. Write the pattern without it.',
  },
  'policy/unknown-attestation-type': {
    short: 'An attestation type that does not exist',
    full: 'A rule asks for an attestation type that is neither built in nor a custom type (custom:my-type), so it never matches. Use one of the types.',
  },
  'scan/too-many-target-artifacts': {
    short: 'More than one target artifact with a fingerprint',
    full: 'An attestation given an artifact_fingerprint names one artifact: target_artifacts lists at most one. Remove the others, or the fingerprint.',
  },
  'scan/target-artifacts-without-commit': {
    short: 'target_artifacts without a commit',
    full: 'An attestation for target_artifacts is matched to the artifacts through its commit. Add git_commit_info (or an artifact_fingerprint).',
  },
  'attestation/empty-url': {
    short: 'An override without the address of its decision',
    full: 'An override attestation names where it was decided in origin_url; an empty one is refused ("Input should be a valid URL, input is empty"). Give the URL of the decision.',
  },
};

/** Codes another document reports with the same rule: an attestation's body is checked as a scan's is. */
const sameRuleAs: Readonly<Record<string, string>> = {
  'attestation/too-many-target-artifacts': 'scan/too-many-target-artifacts',
  'attestation/target-artifacts-without-commit': 'scan/target-artifacts-without-commit',
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What `code` means; undefined for a code this list does not know (a test keeps every code of the core in it). */
export function describeFindingCode(code: string): CodeDescription | undefined {
  if (Object.hasOwn(sameRuleAs, code)) return ownRules[sameRuleAs[code]];
  if (Object.hasOwn(ownRules, code)) return ownRules[code];
  const [document, rule] = code.split('/');
  if (!Object.hasOwn(documents, document) || !Object.hasOwn(schemaRules, rule)) return undefined;
  return schemaRules[rule](documents[document]);
}

/** Where `code` is listed on the page of codes: its own row, or the row of its schema rule. */
export function findingCodeAnchor(code: string): string {
  if (Object.hasOwn(sameRuleAs, code)) return findingCodeAnchor(sameRuleAs[code]);
  if (Object.hasOwn(ownRules, code)) return code.replace('/', '-');
  return code.split('/')[1] ?? code;
}

/** The groups of the page, by the first part of their codes. */
const pageGroups: readonly (readonly [heading: string, prefixes: readonly string[]])[] = [
  ['Reading a document', ['json', 'yaml', 'limits']],
  ['Flow templates', ['template']],
  ['Environment policies', ['policy']],
  ['Scan attestations', ['scan']],
  ['Attestations of other types', ['attestation']],
];

function row(anchor: string, code: string, description: CodeDescription): string {
  const codes = [code, ...Object.keys(sameRuleAs).filter((other) => sameRuleAs[other] === code)];
  return `| <a id="${anchor}"></a>${codes.map((each) => `\`${each}\``).join(', ')} | ${description.short} | ${description.full.replaceAll('|', '\\|')} |`;
}

const tableHead = ['| code | what is wrong | what it means and what to do |', '| --- | --- | --- |'];

/** docs/finding-codes.md: every code, what it means and what to do (a test keeps the file equal to this). */
export function findingCodesPage(): string {
  const own = Object.entries(ownRules);
  const lines = [
    '# Finding codes',
    '',
    'What the editor, `cev validate` and the server say about a flow template, an environment policy,',
    'a scan attestation or an environment report. Each finding has a code, `<document>/<rule>`: this',
    'page lists them. `cev validate --format sarif` links each rule of its log to its row here.',
    '',
    'This page is made from `shared/findingCodes.ts`; `test/unit/findingCodes.test.ts` keeps it equal.',
  ];
  for (const [heading, prefixes] of pageGroups) {
    lines.push('', `## ${heading}`, '', ...tableHead);
    for (const [code, description] of own)
      if (prefixes.includes(code.split('/')[0])) lines.push(row(findingCodeAnchor(code), code, description));
  }
  lines.push(
    '',
    '## The rules of every schema',
    '',
    `Each document is checked against its JSON schema; a breach is \`<document>/<rule>\`, where the document is ${Object.keys(
      documents,
    )
      .map((document) => `\`${document}\``)
      .join(', ')}.`,
    '',
    ...tableHead,
  );
  for (const [rule, describe] of Object.entries(schemaRules))
    lines.push(row(rule, `<document>/${rule}`, describe('a document')));
  return `${lines.join('\n')}\n`;
}

/** Every code the list describes with its own words, and the schema rules by their second part. */
export const describedCodes = {
  own: [...Object.keys(ownRules), ...Object.keys(sameRuleAs)],
  schemaRules: Object.keys(schemaRules),
  documents: Object.keys(documents),
};
