// Reads the connection settings of the `complianceEvidence` section.
import * as vscode from 'vscode';
import type { ConnectionSettings } from './connection.ts';

export function connectionSettings(): ConnectionSettings {
  const config = vscode.workspace.getConfiguration('complianceEvidence');
  return {
    baseUrl: config.get<string>('baseUrl', ''),
    baseUrlUs: config.get<string>('baseUrlUs', ''),
    region: config.get<string>('region', 'default') === 'us' ? 'us' : 'default',
    customUrl: config.get<string>('customUrl', ''),
    org: config.get<string>('org', ''),
  };
}

/** True when a configuration change moves the remote server or org. */
export function affectsConnection(event: vscode.ConfigurationChangeEvent): boolean {
  return ['baseUrl', 'baseUrlUs', 'region', 'customUrl', 'org'].some((key) =>
    event.affectsConfiguration(`complianceEvidence.${key}`),
  );
}
