// The line the API server prints once it listens, and the reading of it: the extension, the
// tests and anyone scripting `cev serve` learn the URL (and so a port picked with --port 0) here.
// Written and read in this one module, so the two cannot drift apart.

const PREFIX = 'Compliance Evidence API listening on ';

/** The ready line: the listen URL, then what the server serves in parentheses. */
export function readyLine(url: string, details: string): string {
  return `${PREFIX}${url} (${details})`;
}

/** The listen URL if `line` is the ready line, e.g. `http://127.0.0.1:40123`. */
export function listenUrlOf(line: string): string | undefined {
  if (!line.startsWith(PREFIX)) return undefined;
  const url = line.slice(PREFIX.length).split(' ', 1)[0];
  return /^http:\/\/(\[[0-9a-f:.]+\]|[^\s/:[\]]+):\d+$/i.test(url) ? url : undefined;
}
