// `cev serve`: the local API server, until SIGTERM or SIGINT (which finish in-flight requests).
// The CLI loads this file only to serve (server/cli.ts): the server needs a newer Node than the
// rest of the CLI, which its help and `cev validate` do not.
import { parseServeArgs } from './serveOptions.ts';
import { startServer } from '../api/start.ts';
import { asksForHelp, commandHelpText } from './help.ts';
import { serveHelp } from './serveHelp.ts';
import { nextStepsOf } from './nextSteps.ts';
import { PortInUseError, UsageError } from '../api/usageError.ts';

/** How to start on another port, in the words of the command that started this one (`npm start` passes flags after `--`). */
function anotherPort(busy: number): string {
  const next = busy === 65535 ? busy - 1 : busy + 1;
  const flag = process.env.npm_lifecycle_event === 'start' ? `npm start -- --port ${next}` : `--port ${next}`;
  return `Start on another port with ${flag} (--port 0 picks a free one)`;
}

/** `guide` prints the next steps after the ready line: for people at a terminal, not for the extension's child. */
export async function runServe(args: string[], { guide = false } = {}): Promise<number> {
  if (asksForHelp(args)) {
    console.log(commandHelpText(serveHelp));
    return 0;
  }
  try {
    const options = parseServeArgs(args);
    const server = await startServer(options, (line) => console.log(line));
    if (guide) console.log(nextStepsOf(options, server.url));
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        server.close().then(resolve, (error: unknown) => {
          console.error(`cev serve: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          resolve();
        });
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    return 0;
  } catch (error) {
    if (error instanceof PortInUseError) {
      console.error(`cev serve: ${error.message}. ${anotherPort(error.port)}`);
      return 2;
    }
    if (error instanceof UsageError) {
      console.error(`cev serve: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
