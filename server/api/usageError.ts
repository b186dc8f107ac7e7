// How a command was run is wrong (a flag, a file, a directory, a port): every command prints the
// message as one line on stderr and exits with code 2.
export class UsageError extends Error {}

/** Another process listens on the port: the message says so, and the command says how to choose another. */
export class PortInUseError extends UsageError {
  readonly port: number;

  /** `from`: the variable that gave the port, when no flag did. */
  constructor(host: string, port: number, from: 'PORT' | undefined) {
    super(
      `cannot listen on ${host}:${port}${from === undefined ? '' : ` (the port $${from} sets)`}: another process is listening there (EADDRINUSE)`,
    );
    this.port = port;
  }
}
