// The previews as CodeLenses: at the top of a flow template, what it would do to the flow's
// trails; at the top of an environment policy, what it would say about each environment it is
// attached to (and a lens to pick any environment); on a policy rule, a hover with the artifacts it
// fails. The server evaluates (the project's preview operations); here the questions are debounced
// per document, the one in flight is cancelled when the text changes, and lenses answer at once
// from what is known, asking the editor to refresh them when an answer arrives. A document with
// errors is never sent: it shows how many to fix. An unreachable or slow server shows a quiet
// "not connected" lens.
import {
  CodeLensRefreshRequest,
  MarkupKind,
  type CodeLens,
  type Connection,
  type Hover,
  type InitializeParams,
  type Position,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { IMPACT_LIST_LIMIT } from '../../shared/contract/index.ts';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import type { PolicyDryRun } from '../../shared/contract/types.ts';
import { flowNameFromFile, policyNameFromFile } from '../../shared/documentNames.ts';
import { validateText, type DocumentKind } from '../../shared/validate.ts';
import {
  environmentsRequest,
  pickEnvironmentCommand,
  policyDryRunRequest,
  serverAccessNotification,
  showPreviewListCommand,
  type PolicyDryRunParams,
  type PreviewList,
  type PreviewProblem,
} from '../../shared/protocol.ts';
import { answerOf, previewClientOf } from './serverAccess.ts';
import { locate } from './service/nodes.ts';
import { treeOf } from './service/parsed.ts';
import {
  dryRunItems,
  dryRunTitle,
  errorsTitle,
  failuresByRule,
  impactItems,
  impactTitle,
  ruleFailureMarkdown,
  ruleKeyAt,
} from './service/previewText.ts';

/** Quiet time after an edit before the server is asked. */
const DEBOUNCE_MS = 300;
/** Changed trails a template lens lists. */
const LISTED_TRAILS = 200;
/** Running artifacts a dry-run lists (the non-compliant first), so rule hovers count every failure the server lists. */
const LISTED_ARTIFACTS = IMPACT_LIST_LIMIT;
/** Attached environments that get a lens of their own. */
const ENVIRONMENT_LENSES = 10;

interface Preview {
  /** The text the preview was computed for. */
  text: string;
  lenses: CodeLens[];
  /** Policy rules that fail, keyed by their path in the document, with where and why. */
  failures: Map<string, string[]>;
}

export interface PreviewLenses {
  /** Reads the client's capabilities (whether it takes lens refresh requests). */
  initialize(params: InitializeParams): void;
  /** `base` with the dry-run's failures of the rule at `position` added, when there are any. */
  hoverAt(uri: string, position: Position, base: Hover | null): Hover | null;
}

const TOP = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function lens(title: string, command = '', args?: unknown[]): CodeLens {
  return { range: TOP, command: { title, command, ...(args === undefined ? {} : { arguments: args }) } };
}

/** The file name of a document URI (`untitled:` ones included). */
function fileNameOf(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

function errorCount(kind: DocumentKind, text: string): number {
  return validateText(kind, text).findings.filter((finding) => finding.severity === 'error').length;
}

function isPreviewed(kind: DocumentKind | undefined): kind is 'flow-template' | 'env-policy' {
  return kind === 'flow-template' || kind === 'env-policy';
}

/** What a lens names before anything is known. */
function subjectOf(kind: 'flow-template' | 'env-policy', uri: string): string {
  if (kind === 'flow-template') {
    const flow = flowNameFromFile(fileNameOf(uri));
    return flow === undefined ? 'impact preview' : `flow ${flow}`;
  }
  const policy = policyNameFromFile(fileNameOf(uri));
  return policy === undefined ? 'policy dry-run' : `policy ${policy}`;
}

export function registerPreviewLenses(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  kindOf: (document: TextDocument) => DocumentKind | undefined,
): PreviewLenses {
  let api: ApiClient | undefined;
  let refreshSupported = false;
  const previews = new Map<string, Preview>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const running = new Map<string, { text: string; controller: AbortController }>();

  const refresh = (): void => {
    if (refreshSupported) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  };

  const stop = (uri: string): void => {
    clearTimeout(timers.get(uri));
    timers.delete(uri);
    running.get(uri)?.controller.abort();
    running.delete(uri);
  };

  const templatePreview = async (
    server: ApiClient,
    uri: string,
    text: string,
    signal: AbortSignal,
  ): Promise<Omit<Preview, 'text'>> => {
    const flow = flowNameFromFile(fileNameOf(uri));
    if (flow === undefined)
      return { lenses: [lens('impact preview · name the file <flow>.flow-template.yml')], failures: new Map() };
    const answer = await answerOf(server.templateImpact(flow, text, LISTED_TRAILS, signal), signal);
    const subject = `flow ${flow}`;
    if (answer.kind === 'invalid')
      return { lenses: [lens(`${subject} · ${errorsTitle(answer.errors)}`)], failures: new Map() };
    if (answer.kind === 'notFound')
      return { lenses: [lens(`${subject} · not on the server yet`)], failures: new Map() };
    if (answer.kind === 'notConnected') return { lenses: [lens(`${subject} · not connected`)], failures: new Map() };
    const list: PreviewList = {
      title: `Flow ${flow}: trails this template changes`,
      items: impactItems(answer.body),
      empty: 'Every trail reads the same under this template.',
    };
    return { lenses: [lens(impactTitle(answer.body), showPreviewListCommand, [list])], failures: new Map() };
  };

  const dryRunOn = (server: ApiClient, environment: string, text: string, signal: AbortSignal) =>
    answerOf(server.policyDryRun(environment, text, LISTED_ARTIFACTS, signal), signal);

  const dryRunList = (run: PolicyDryRun, policy: string | undefined): PreviewList => ({
    title: `${run.environment}: dry-run of ${policy === undefined ? 'this policy' : `policy ${policy}`} on snapshot #${run.snapshot_index ?? 0}`,
    items: dryRunItems(run),
    empty: 'Nothing runs in the latest snapshot.',
  });

  const policyPreview = async (
    server: ApiClient,
    uri: string,
    text: string,
    signal: AbortSignal,
  ): Promise<Omit<Preview, 'text'>> => {
    const policy = policyNameFromFile(fileNameOf(uri));
    const pick = lens(
      policy === undefined ? 'dry-run on an environment…' : `dry-run policy ${policy} on an environment…`,
      pickEnvironmentCommand,
      [uri],
    );
    if (policy === undefined) return { lenses: [pick], failures: new Map() };
    const stored = await answerOf(server.getPolicy(policy, signal), signal);
    if (stored.kind === 'notConnected')
      return { lenses: [lens(`policy ${policy} · not connected`)], failures: new Map() };
    const environments = stored.kind === 'ok' ? namesIn(stored.body.consuming_envs).slice(0, ENVIRONMENT_LENSES) : [];
    const answers = await Promise.all(environments.map((environment) => dryRunOn(server, environment, text, signal)));
    const lenses: CodeLens[] = [];
    const runs: PolicyDryRun[] = [];
    answers.forEach((answer, position) => {
      const environment = environments[position];
      if (answer.kind === 'ok') {
        runs.push(answer.body);
        lenses.push(lens(dryRunTitle(answer.body), showPreviewListCommand, [dryRunList(answer.body, policy)]));
      } else if (answer.kind === 'invalid') lenses.push(lens(`${environment} · ${errorsTitle(answer.errors)}`));
      else if (answer.kind === 'notConnected') lenses.push(lens(`${environment} · not connected`));
    });
    return { lenses: [...lenses, pick], failures: failuresByRule(runs) };
  };

  const compute = async (uri: string): Promise<void> => {
    timers.delete(uri);
    const document = documents.get(uri);
    const server = api;
    if (document === undefined || server === undefined) return;
    const kind = kindOf(document);
    if (!isPreviewed(kind)) return;
    const text = document.getText();
    running.get(uri)?.controller.abort();
    running.delete(uri);
    const errors = errorCount(kind, text);
    if (errors > 0) {
      previews.set(uri, {
        text,
        lenses: [lens(`${subjectOf(kind, uri)} · ${errorsTitle(errors)}`)],
        failures: new Map(),
      });
      refresh();
      return;
    }
    const controller = new AbortController();
    running.set(uri, { text, controller });
    const started = performance.now();
    try {
      const preview =
        kind === 'flow-template'
          ? await templatePreview(server, uri, text, controller.signal)
          : await policyPreview(server, uri, text, controller.signal);
      // A newer text, a closed document or another server make this answer moot.
      if (documents.get(uri)?.getText() !== text || api !== server) return;
      previews.set(uri, { text, ...preview });
      connection.console.debug(`preview of ${uri} took ${(performance.now() - started).toFixed(1)} ms`);
      refresh();
    } catch {
      // Aborted: a newer question replaced this one.
    } finally {
      if (running.get(uri)?.controller === controller) running.delete(uri);
    }
  };

  const schedule = (uri: string, delayMs: number): void => {
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => void compute(uri), delayMs),
    );
  };

  const lensesFor = (uri: string): CodeLens[] => {
    const document = documents.get(uri);
    if (document === undefined) return [];
    const kind = kindOf(document);
    if (!isPreviewed(kind)) return [];
    const text = document.getText();
    const known = previews.get(uri);
    if (known?.text === text) return known.lenses;
    const subject = subjectOf(kind, uri);
    const errors = errorCount(kind, text);
    if (errors > 0) {
      previews.set(uri, { text, lenses: [lens(`${subject} · ${errorsTitle(errors)}`)], failures: new Map() });
      return previews.get(uri)!.lenses;
    }
    if (api === undefined) return [lens(`${subject} · not connected`)];
    if (!timers.has(uri) && running.get(uri)?.text !== text) schedule(uri, 0);
    return [lens(`${subject} · evaluating…`)];
  };

  documents.onDidChangeContent((event) => {
    const uri = event.document.uri;
    if (!isPreviewed(kindOf(event.document)) || api === undefined) return;
    // The question in flight is about a text that no longer is.
    running.get(uri)?.controller.abort();
    running.delete(uri);
    schedule(uri, DEBOUNCE_MS);
  });
  documents.onDidClose((event) => {
    stop(event.document.uri);
    previews.delete(event.document.uri);
  });

  connection.onNotification(serverAccessNotification, (params) => {
    api = previewClientOf(params);
    for (const uri of [...timers.keys(), ...running.keys()]) stop(uri);
    previews.clear();
    refresh();
  });

  connection.onCodeLens((params) => {
    try {
      return lensesFor(params.textDocument.uri);
    } catch (error) {
      connection.console.error(
        `textDocument/codeLens failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
  });

  connection.onRequest(environmentsRequest, async () => {
    if (api === undefined) return { problem: 'not connected' };
    const answer = await answerOf(api.listEnvironments(), new AbortController().signal);
    if (answer.kind !== 'ok') return { problem: 'not connected' };
    // Whatever the server sent: a list that is none, or an entry without a name, lists nothing.
    const listed = Array.isArray(answer.body) ? answer.body : [];
    return { environments: namesIn(listed.map((environment) => environment?.name)) };
  });

  connection.onRequest(
    policyDryRunRequest,
    // Checked as it arrives: the type says what the extension sends, not what reaches the process.
    async (params: { [K in keyof PolicyDryRunParams]?: unknown } | null): Promise<PreviewList | PreviewProblem> => {
      const { uri, environment } = params ?? {};
      const document = typeof uri === 'string' ? documents.get(uri) : undefined;
      if (document === undefined || kindOf(document) !== 'env-policy' || typeof environment !== 'string')
        return { problem: 'Open an environment policy first.' };
      const text = document.getText();
      const errors = errorCount('env-policy', text);
      if (errors > 0) return { problem: errorsTitle(errors) };
      if (api === undefined) return { problem: 'not connected' };
      const answer = await dryRunOn(api, environment, text, new AbortController().signal);
      if (answer.kind === 'ok') return dryRunList(answer.body, policyNameFromFile(fileNameOf(document.uri)));
      if (answer.kind === 'invalid') return { problem: errorsTitle(answer.errors) };
      return { problem: answer.kind === 'notFound' ? `No environment ${environment}.` : 'not connected' };
    },
  );

  return {
    initialize(params) {
      refreshSupported = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    },
    hoverAt(uri, position, base) {
      const document = documents.get(uri);
      const preview = previews.get(uri);
      if (
        document === undefined ||
        preview === undefined ||
        preview.failures.size === 0 ||
        preview.text !== document.getText()
      )
        return base;
      const key = ruleKeyAt(locate(treeOf(document), document.offsetAt(position)).path, preview.failures);
      if (key === undefined) return base;
      const failures = ruleFailureMarkdown(preview.failures.get(key)!);
      const before = base === null ? '' : `${contentsText(base.contents)}\n\n---\n\n`;
      return {
        contents: { kind: MarkupKind.Markdown, value: `${before}${failures}` },
        ...(base?.range === undefined ? {} : { range: base.range }),
      };
    },
  };
}

/** The names in a list the server sent, whatever else it holds. */
function namesIn(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
}

function contentsText(contents: Hover['contents']): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents))
    return contents.map((part) => (typeof part === 'string' ? part : part.value)).join('\n\n');
  return contents.value;
}
