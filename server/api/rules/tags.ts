// The tag filter of every list that takes one: `key` matches a resource carrying that tag,
// `key<separator>value` one whose tag has that value. Lists take `key:value`; the org-level trail
// list's flow_tag takes `key=value`.

export function hasTag(tags: Readonly<Record<string, unknown>>, filter: string, separator: ':' | '=' = ':'): boolean {
  const at = filter.indexOf(separator);
  if (at === -1) return Object.hasOwn(tags, filter);
  const key = filter.slice(0, at);
  return Object.hasOwn(tags, key) && String(tags[key]) === filter.slice(at + 1);
}
