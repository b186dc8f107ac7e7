// `cev`: the command line face of the product. Each command lives in server/commands/.
import { runServe } from './commands/serve.ts';
import { runValidate } from './commands/validate.ts';

const usage = 'usage: cev serve [options] | cev validate [--kind <kind>] <file>...';
const [command, ...args] = process.argv.slice(2);

const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: runServe,
  validate: runValidate,
};

const run = command === undefined ? undefined : commands[command];
if (run === undefined) {
  console.error(usage);
  process.exitCode = 2;
} else {
  run(args).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`cev ${command}: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
