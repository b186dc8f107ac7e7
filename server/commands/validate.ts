// `cev validate`: the language service in batch, for pipelines.
export async function runValidate(_args: string[]): Promise<number> {
  console.error('cev validate: not implemented yet.');
  return 2;
}
