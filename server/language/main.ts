// Entry point of dist/language-server.js. The transport comes from the command line
// (`--stdio`, `--node-ipc` or `--socket=<port>`), as vscode-languageserver reads it.
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startLanguageServer } from './connection.ts';

startLanguageServer(createConnection(ProposedFeatures.all));
