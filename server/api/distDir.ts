// Where the files the build puts beside the bundles live (dist/: the API reference's renderer, and
// resources/ next to it in the .vsix). The bundle is in dist/ itself (esbuild defines
// import.meta.dirname as the bundle's __dirname); run from its sources, as the fast tests run it in
// their own process, the server is two folders below the repository, whose dist/ the build filled.
import { basename, join } from 'node:path';

const here = import.meta.dirname;

export const distDir = basename(here) === 'dist' ? here : join(here, '..', '..', 'dist');
