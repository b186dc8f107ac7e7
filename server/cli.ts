// `cev`: the command line face of the product. Each command lives in server/commands/ and
// describes itself for the help; this file dispatches, and answers help and version. It runs on
// any maintained Node: only `serve` needs a newer one (its storage is node:sqlite), so the server
// is loaded when it is asked for, after the Node running it has been checked.
import { version } from '../package.json';
import { suggestionsFor } from '../shared/text/suggest.ts';
import { asksForHelp, commandHelpText, overviewText, unknownOptionMessage, type CommandHelp } from './commands/help.ts';
import { serveHelp } from './commands/serveHelp.ts';
import { runValidate, validateHelp } from './commands/validate.ts';
import { olderNodeMessage } from './commands/nodeVersion.ts';

interface Command {
  help: CommandHelp;
  run(args: string[]): Promise<number>;
}

const commands: Record<string, Command> = {
  serve: {
    help: serveHelp,
    run: async (args) => {
      if (asksForHelp(args)) {
        console.log(commandHelpText(serveHelp));
        return 0;
      }
      const older = olderNodeMessage(process.versions.node, process.argv[1], args);
      if (older !== undefined) {
        console.error(`cev serve: ${older}`);
        return 2;
      }
      const { runServe } = await import('./commands/serve.ts');
      return runServe(args, { guide: true });
    },
  },
  validate: { help: validateHelp, run: runValidate },
};

const overview = overviewText(
  Object.values(commands).map((command) => command.help),
  version,
);

/** `cev: unknown command 'serv'; did you mean serve? ...` */
function unknownCommand(name: string): string {
  const [closest] = suggestionsFor(name, Object.keys(commands), 1);
  return `cev: unknown command '${name}'${closest === undefined ? '.' : `; did you mean ${closest}?`} Run 'cev --help' for the commands.`;
}

/** The exit code of the arguments, printing what they ask for. */
async function exitCodeOf([first, ...rest]: string[]): Promise<number> {
  if (first === undefined) {
    console.error(overview);
    return 2;
  }
  if (first === '--help' || first === '-h') {
    console.log(overview);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    console.log(version);
    return 0;
  }
  if (first === 'help') {
    const [topic] = rest;
    if (topic === undefined) {
      console.log(overview);
      return 0;
    }
    const command = commands[topic];
    if (command === undefined) {
      console.error(unknownCommand(topic));
      return 2;
    }
    console.log(commandHelpText(command.help));
    return 0;
  }
  const command = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (command === undefined) {
    console.error(
      first.startsWith('-')
        ? `cev: ${unknownOptionMessage(first, ['--help', '--version'], '')}`
        : unknownCommand(first),
    );
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    console.error(`cev ${first}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

exitCodeOf(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`cev: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
