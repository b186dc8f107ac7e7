// `cev serve`: the local API server.
export async function runServe(_args: string[]): Promise<number> {
  console.log('cev serve: the local API server is not implemented yet.');
  return 0;
}
