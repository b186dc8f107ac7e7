// Starts yaml-language-server from its own modules exactly as its server.js does, except that the
// validation delay (fixed at 200 ms, no setting changes it) is 0: the engine against engine
// comparison of test/bench/language.bench.ts. Nothing in node_modules is modified.
import { promises as fs } from 'node:fs';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { TelemetryImpl } from 'yaml-language-server/out/src/languageserver/telemetry.js';
import {
  schemaRequestHandler,
  workspaceContext,
} from 'yaml-language-server/out/src/languageservice/services/schemaRequestHandler.js';
import { setupl10nBundle } from 'yaml-language-server/out/src/nodeTranslationSetup.js';
import { YAMLServerInit } from 'yaml-language-server/out/src/yamlServerInit.js';
import { SettingsState } from 'yaml-language-server/out/src/yamlSettings.js';

const connection = process.argv.includes('--stdio') ? createConnection() : createConnection(ProposedFeatures.all);
console.log = connection.console.log.bind(connection.console);
console.error = connection.console.error.bind(connection.console);

const yamlSettings = new SettingsState();
yamlSettings.validationDelayMs = 0;

const fileSystem = { readFile: async (fsPath, encoding) => (await fs.readFile(fsPath, encoding)).toString() };
const schemaRequestService = (uri) =>
  schemaRequestHandler(
    connection,
    uri,
    yamlSettings.workspaceFolders,
    yamlSettings.workspaceRoot,
    yamlSettings.useVSCodeContentRequest,
    fileSystem,
    false,
  );
new YAMLServerInit(
  connection,
  yamlSettings,
  workspaceContext,
  schemaRequestService,
  new TelemetryImpl(connection),
  setupl10nBundle,
).start();
