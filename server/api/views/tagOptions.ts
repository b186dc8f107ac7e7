// The tags in use on a kind of record (reference §8.4: controls, repos), as the lists' filters
// offer them: each key once, with every value it has, both sorted.
import type { TagOptions } from '../../../shared/contract/types.ts';

export function tagOptionsOf(tagSets: Iterable<Record<string, string>>): TagOptions {
  const values = new Map<string, Set<string>>();
  for (const tags of tagSets) {
    for (const [key, value] of Object.entries(tags)) {
      const known = values.get(key) ?? new Set<string>();
      known.add(String(value));
      values.set(key, known);
    }
  }
  const options: TagOptions = {};
  for (const key of [...values.keys()].sort()) options[key] = [...values.get(key)!].sort();
  return options;
}
