// Bundles the e2e suite into one CommonJS file that VS Code's extension host loads as its test entry.
// Separate from the product's bundles: tests never ship in the extension.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
  entryPoints: [path.join(e2eDir, 'suite', 'index.ts')],
  outfile: path.join(e2eDir, '.cache', 'suite', 'index.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  // mocha is loaded from the repository's node_modules at run time; vscode is the host's.
  external: ['vscode', 'mocha'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
