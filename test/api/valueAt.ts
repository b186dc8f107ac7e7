// Reads inside the free-form parts of an answer (pods, user_data, a rule's context, ...), which the
// contract types as `unknown` because the API passes them through as sent: each step goes into an
// object's property or an array's item, and a step that finds neither gives undefined, so the
// assertion on the result fails with the value it found instead of throwing a TypeError.
export function valueAt(value: unknown, ...steps: Array<string | number>): unknown {
  let current = value;
  for (const step of steps) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}
