// How a value is written as a YAML plain or quoted scalar.

/** `*`, `true` as a string, `01` and the like need quotes in YAML; names and types do not. */
export function yamlScalarText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  const plain =
    /^[A-Za-z0-9_][\w.:/-]*$/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~|[-+]?[\d.]+(e[-+]?\d+)?)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}
