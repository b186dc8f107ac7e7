// `cev serve`: the local API server, until SIGTERM or SIGINT (which finish in-flight requests).
import { parseServeArgs, UsageError } from '../api/options.ts';
import { startServer } from '../api/start.ts';

export async function runServe(args: string[]): Promise<number> {
  try {
    const server = await startServer(parseServeArgs(args), (line) => console.log(line));
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
    if (error instanceof UsageError) {
      console.error(`cev serve: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
