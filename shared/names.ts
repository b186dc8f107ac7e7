// What the API's names may be (reference §1.7), written once for the schemas, the server's
// parameters and options, the extension's input boxes and the language server. The texts are part
// of the wire: an error message quotes the pattern a value failed, in the writing the reference
// gives for that field, so two patterns that accept the same names keep their own writing.

/** An environment name without its anchors: a letter or digit, then letters, digits, `.`, `-`, `_` (no `~`). */
export const ENVIRONMENT_NAME_PART = '[a-zA-Z0-9][a-zA-Z0-9\\.\\-_]*';

/** An environment name, as the reference writes it. */
export const ENVIRONMENT_NAME_PATTERN = `^${ENVIRONMENT_NAME_PART}$` as const;

/** A flow name, as the reference writes it: a letter or digit, then letters, digits, `.`, `-`, `_`, `~`. A policy's name is one too. */
export const FLOW_NAME_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$';

/**
 * The name fields of artifacts (the artifact list's `flow_name`), a trail's name (reference §8.1)
 * and an org's name: the names FLOW_NAME_PATTERN accepts, as the spec writes them.
 */
export const NAME_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9._~-]*$';

/** An attestation name, and each `target_artifacts` item: letters, digits, `_`, `,` and `-`. */
export const ATTESTATION_NAME_PATTERN = '^[a-zA-Z0-9_,-]+$';

/** A control identifier: letters, digits, `-`, `.`, `_`, `~`. */
export const CONTROL_IDENTIFIER_PATTERN = '^[a-zA-Z0-9\\-._~]+$';

/** A custom attestation type's name (`custom:<name>`): letters, digits, `_`, `.`, `~`, `-`. */
export const CUSTOM_TYPE_NAME_PATTERN = '^[a-zA-Z0-9_.~-]+$';

export const flowName = new RegExp(FLOW_NAME_PATTERN);
export const environmentName = new RegExp(ENVIRONMENT_NAME_PATTERN);
