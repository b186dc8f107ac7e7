// The suite's own output. The workbench forwards the extension host's console together with its
// own log lines; the prefix lets the runner print the suite's lines and file the rest.
import { format } from 'node:util';

export const SUITE_LINE_PREFIX = '[suite] ';

export function say(...args: unknown[]): void {
  console.log(
    format(...args)
      .split('\n')
      .map((line) => SUITE_LINE_PREFIX + line)
      .join('\n'),
  );
}
