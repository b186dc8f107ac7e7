// How a command was run is wrong (a flag, a file, a directory, a port): every command prints the
// message as one line on stderr and exits with code 2.
export class UsageError extends Error {}
