// Which Node `cev serve` needs, and the one command that serves anyway from an older Node: the same
// script under that Node, fetched by npx. The rest of `cev` runs on Node 20 (package.json's
// engines); the server stores in the built-in node:sqlite, so it runs on the Node the repository
// pins for its scripts and tests (the `node` devDependency).
import { devDependencies } from '../../package.json';

/** The oldest major version of Node that serves. */
export const SERVE_NODE_MAJOR = Number(/\d+/.exec(devDependencies.node)?.[0]);

/** `word` as one shell word. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** One line saying which Node serving needs and what to run instead; undefined when `running` serves. */
export function olderNodeMessage(
  running: string,
  script: string | undefined,
  args: readonly string[],
): string | undefined {
  if (Number(running.split('.')[0]) >= SERVE_NODE_MAJOR) return undefined;
  const command = ['npx', '-y', `node@${SERVE_NODE_MAJOR}`, script ?? 'dist/cli.js', 'serve', ...args].map(shellWord);
  return `needs Node ${SERVE_NODE_MAJOR} or newer (its storage is the built-in node:sqlite); this is Node ${running}. Run instead: ${command.join(' ')}`;
}
