// Entry point of the bundled local API server (dist/api-server.js); same flags as `cev serve`.
// The extension starts it as a child process.
import { runServe } from './commands/serve.ts';

runServe(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`api-server: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
