// Bundles the entry points of the product. Type checking is separate (`npm run typecheck`).
import { chmodSync, cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

// The extension host of VS Code 1.104 runs Node 22; the servers run on Node 22 or newer.
const nodeBundles = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['vscode'],
  // Code that finds files beside its bundle (server/api/distDir.ts) reads import.meta.dirname, which
  // CommonJS lacks: there it is the bundle's own folder.
  define: { 'import.meta.dirname': '__dirname' },
  sourcemap: true,
  logLevel: 'warning',
  minify: process.argv.includes('--minify'),
};

await esbuild.build({
  ...nodeBundles,
  entryPoints: {
    extension: 'client/extension.ts',
    'language-server': 'server/language/main.ts',
    'api-server': 'server/apiServer.ts',
    // The API server's evaluation threads (server/api/evaluation/pool.ts), next to the bundles that start them.
    'evaluation-worker': 'server/api/evaluation/worker.ts',
  },
});

// `cev` runs by its name (package.json's bin; `npx cev`, a global install) on the Node found on the
// PATH, as old as Node 20 for its help and `cev validate`: it loads the server only to serve.
await esbuild.build({
  ...nodeBundles,
  entryPoints: { cli: 'server/cli.ts' },
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
});
chmodSync('dist/cli.js', 0o755);

// The detail webviews' one script and stylesheet, for the browser: the only files the webviews
// may load (their localResourceRoots is dist/media).
await esbuild.build({
  entryPoints: ['client/details/webview/details.ts', 'client/details/webview/details.css'],
  outdir: 'dist/media',
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'chrome120',
  logLevel: 'warning',
  minify: process.argv.includes('--minify'),
});

// The API reference's renderer reads its static files at run time; they travel next to the bundles.
const swaggerUi = dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui'));
cpSync(join(swaggerUi, 'static'), 'dist/api-reference', { recursive: true });
