// LSP wiring: documents, settings, diagnostics timed to each document's cost and the request handlers. Everything a
// feature computes comes from service/ (pure functions); this file only moves messages.
import {
  CodeActionKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CancellationToken,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createCheckDelays } from './checkDelay.ts';
import { createDebouncer } from './debounce.ts';
import { createMemoryRelease } from './memory.ts';
import { defaultFileGlobs, settingsFrom, settingsSection, type Settings } from '../../shared/settings.ts';
import { registerPreviewLenses } from './previewLenses.ts';
import { codeActionsFor } from './service/codeActions.ts';
import { completionsAt, completionTriggerCharacters } from './service/completion.ts';
import { diagnosticsOf } from './service/diagnostics.ts';
import { documentKindOf } from './service/documentKind.ts';
import { foldingRangesOf } from './service/folding.ts';
import { hoverAt } from './service/hover.ts';
import { documentSymbolsOf } from './service/symbols.ts';
import type { DocumentKind } from '../../shared/validate.ts';

export function startLanguageServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const debouncer = createDebouncer();
  const checkDelays = createCheckDelays();
  const memory = createMemoryRelease();
  let settings: Settings = settingsFrom(undefined, defaultFileGlobs);
  let pullsConfiguration = false;

  const kindOf = (document: TextDocument): DocumentKind | undefined =>
    documentKindOf(document.uri, document.getText(), settings.files);
  const previews = registerPreviewLenses(connection, documents, kindOf);

  // Every request and notification handler reports its duration at debug level, and a failure
  // becomes a logged error and an empty answer: no text may take the server down.
  function timed<P, R>(
    name: string,
    fallback: R,
    handler: (params: P) => R,
  ): (params: P, token?: CancellationToken) => R {
    return (params) => {
      const start = performance.now();
      try {
        return handler(params);
      } catch (error) {
        connection.console.error(`${name} failed: ${describe(error)}`);
        return fallback;
      } finally {
        connection.console.debug(`${name} took ${(performance.now() - start).toFixed(1)} ms`);
      }
    };
  }

  const publishDiagnostics = timed('diagnostics', undefined, (document: TextDocument) => {
    const kind = kindOf(document);
    const diagnostics = kind === undefined ? [] : diagnosticsOf(kind, document, settings.diagnostics.maxProblems);
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  });

  // The check reads the document when it runs, never the version that scheduled it, and runs
  // synchronously: what it publishes is the latest version the server has, so no publish can
  // follow a newer one with older findings.
  const scheduleDiagnostics = (document: TextDocument): void => {
    const delayMs = checkDelays.delayFor(document.uri, settings.diagnostics.debounceMs);
    debouncer.schedule(document.uri, delayMs, () => {
      // The document may have closed while the timer ran.
      const current = documents.get(document.uri);
      if (current === undefined) return;
      // The processor time the check took, not the time that passed: on a busy machine the wait
      // for a processor would make a cheap document look expensive and its squiggles lag.
      const start = process.cpuUsage();
      publishDiagnostics(current);
      const used = process.cpuUsage(start);
      checkDelays.record(current.uri, (used.user + used.system) / 1000);
    });
  };

  const applySettings = (raw: unknown): void => {
    settings = settingsFrom(raw, defaultFileGlobs);
    // Globs decide which documents we own, so every open document is judged again.
    for (const document of documents.all()) scheduleDiagnostics(document);
  };

  connection.onInitialize((params): InitializeResult => {
    pullsConfiguration = params.capabilities.workspace?.configuration === true;
    settings = settingsFrom(params.initializationOptions, defaultFileGlobs);
    previews.initialize(params);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: completionTriggerCharacters, resolveProvider: false },
        hoverProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'compliance-evidence-language-server' },
    };
  });

  connection.onDidChangeConfiguration(
    timed('workspace/didChangeConfiguration', undefined, (params: { settings: unknown }) => {
      const pushed = params.settings as Record<string, unknown> | null | undefined;
      if (pushed !== null && typeof pushed === 'object' && settingsSection in pushed) {
        applySettings(pushed);
      } else if (pullsConfiguration) {
        connection.workspace.getConfiguration(settingsSection).then(applySettings, (error: unknown) => {
          connection.console.error(`reading the ${settingsSection} settings failed: ${describe(error)}`);
        });
      }
    }),
  );

  documents.onDidChangeContent((event) => scheduleDiagnostics(event.document));
  documents.onDidClose((event) => {
    debouncer.cancel(event.document.uri);
    checkDelays.forget(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
    memory.documentClosed();
  });

  // Resolves the open document and its kind; requests on documents we do not own answer empty.
  const owned = (uri: string): { document: TextDocument; kind: DocumentKind } | undefined => {
    const document = documents.get(uri);
    if (document === undefined) return undefined;
    const kind = kindOf(document);
    return kind === undefined ? undefined : { document, kind };
  };

  connection.onCompletion(
    timed('textDocument/completion', null, (params) => {
      const target = owned(params.textDocument.uri);
      return target === undefined ? null : completionsAt(target.kind, target.document, params.position);
    }),
  );
  connection.onHover(
    timed('textDocument/hover', null, (params) => {
      const target = owned(params.textDocument.uri);
      return target === undefined
        ? null
        : previews.hoverAt(
            params.textDocument.uri,
            params.position,
            hoverAt(target.kind, target.document, params.position),
          );
    }),
  );
  connection.onDocumentSymbol(
    timed('textDocument/documentSymbol', null, (params) => {
      const target = owned(params.textDocument.uri);
      return target === undefined ? null : documentSymbolsOf(target.kind, target.document);
    }),
  );
  connection.onFoldingRanges(
    timed('textDocument/foldingRange', null, (params) => {
      const target = owned(params.textDocument.uri);
      return target === undefined ? null : foldingRangesOf(target.document);
    }),
  );
  connection.onCodeAction(
    timed('textDocument/codeAction', null, (params) => {
      const target = owned(params.textDocument.uri);
      return target === undefined ? null : codeActionsFor(target.kind, target.document, params.context.diagnostics);
    }),
  );

  connection.onShutdown(() => {
    debouncer.cancelAll();
    memory.stop();
  });
  documents.listen(connection);
  connection.listen();
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
