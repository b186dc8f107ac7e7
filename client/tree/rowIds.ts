// Row ids are paths through the tree (`flow/shop/trail/build-1`), so a row's ancestors are its prefixes.

/** Ids are paths (`flow/shop/trail/build-1`): the longest loaded prefix made of whole id pairs. */
export function loadedAncestorId(id: string, isLoaded: (id: string) => boolean): string | undefined {
  const parts = id.split('/');
  for (let length = parts.length - 2; length >= 2; length -= 2) {
    const candidate = parts.slice(0, length).join('/');
    if (isLoaded(candidate)) return candidate;
  }
  return undefined;
}

/** An environment's row id; the ids of every row beneath it start with it. */
export function environmentRowId(environment: string): string {
  return `env/${environment}`;
}

/** A flow's row id; the ids of every row beneath it start with it. */
export function flowRowId(flow: string): string {
  return `flow/${flow}`;
}

/** Whether a row belongs to the Environments view rather than the Flows view. */
export function isEnvironmentRowId(id: string): boolean {
  return id.startsWith('env/');
}
