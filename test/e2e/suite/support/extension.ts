// The extension under test, activated, with the API its activate() returns.
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../../client/extensionApi.ts';
import { EXTENSION_ID } from './paths.ts';

export async function extensionApi(): Promise<ExtensionApi> {
  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension.activate();
}
