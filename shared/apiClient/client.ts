// A typed client for the Compliance Evidence API v2 over the platform's `fetch`, the one both the
// extension and the language server's previews use. It knows nothing of VS Code: the caller
// injects the token getter, so the same code runs in the extension, the language server and tests.
// In the extension host the platform's fetch is VS Code's own, which carries its proxy support:
// nothing here may ever set undici's global dispatcher.
import type { PolicyDryRun, TemplateImpact } from '../contract/types.ts';
import { ApiError, apiErrorFromBody } from './errors.ts';
import type {
  Environment,
  FilePart,
  Flow,
  Page,
  SearchResult,
  Snapshot,
  SnapshotListItem,
  Trail,
  WriteResult,
} from './types.ts';

export interface ApiClientOptions {
  /** The API base including `/api/v2`, e.g. `http://127.0.0.1:8001/api/v2`. */
  baseUrl: string;
  org: string;
  /** The API key sent as a Bearer token; undefined sends no Authorization header. */
  token: () => PromiseLike<string | undefined> | string | undefined;
  /** Bound on every request, so a stuck server never hangs a view. */
  timeoutMs?: number;
}

type Query = Record<string, string | number | undefined>;

interface RequestOptions {
  query?: Query;
  body?: FormData | string;
  /** Cancels the request (along with the timeout); a cancelled request rejects with the signal's reason. */
  signal?: AbortSignal;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly org: string;
  private readonly token: ApiClientOptions['token'];
  private readonly timeoutMs: number;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.org = options.org;
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** `GET /ready` (outside `/api/v2`): true when the server answers 200. */
  async isReady(): Promise<boolean> {
    try {
      const response = await fetch(new URL('/ready', this.baseUrl), { signal: AbortSignal.timeout(this.timeoutMs) });
      await response.arrayBuffer();
      return response.ok;
    } catch {
      return false;
    }
  }

  listFlows(): Promise<Flow[]> {
    return this.json<Flow[]>('GET', ['flows', this.org], { query: { sort: 'name', sort_direction: 'asc' } });
  }

  getFlow(flow: string): Promise<Flow> {
    return this.json<Flow>('GET', ['flows', this.org, flow]);
  }

  /** Spec endpoint 3: create (201) or update (200) a flow from its template text. */
  async putFlowTemplate(flow: string, description: string, template: FilePart): Promise<WriteResult> {
    const form = new FormData();
    form.append('data_json', JSON.stringify({ name: flow, description }));
    form.append('template_file', fileBlob(template), template.name);
    return this.write('PUT', ['flows', this.org, 'template_file'], form);
  }

  /** Spec endpoint 4, always paged so the view knows when to offer "Load more…". */
  async listTrails(flow: string, page: number, perPage: number): Promise<Page<Trail>> {
    const body = await this.json<Page<Trail> | Trail[]>('GET', ['trails', this.org, flow], {
      query: { page, per_page: perPage },
    });
    if (Array.isArray(body))
      return { data: body, pagination: { total: body.length, page: 1, per_page: body.length, page_count: 1 } };
    return body;
  }

  getTrail(flow: string, trail: string): Promise<Trail> {
    return this.json<Trail>('GET', ['trails', this.org, flow, trail]);
  }

  /** Begins a trail (201) or updates an existing one (200). */
  beginTrail(flow: string, trail: string, description?: string): Promise<WriteResult> {
    const form = new FormData();
    form.append(
      'data_json',
      JSON.stringify(description === undefined ? { name: trail } : { name: trail, description }),
    );
    return this.write('PUT', ['trails', this.org, flow], form);
  }

  /** Spec endpoint 1: `data` is a `ScanAttestationPostInput`; the attachment is optional. */
  attestScan(flow: string, trail: string, data: unknown, attachment?: FilePart): Promise<WriteResult> {
    const form = new FormData();
    form.append('data_json', JSON.stringify(data));
    if (attachment) form.append('attachment_file', fileBlob(attachment), attachment.name);
    return this.write('POST', ['attestations', this.org, flow, 'trail', trail, 'scan'], form);
  }

  /** One attestation by its id (reference §2.3), as the API sends it; a 404 ApiError when there is none. */
  async getAttestation(attestationId: string): Promise<Record<string, unknown>> {
    const body = await this.json<{ data?: Record<string, unknown>[] }>('GET', ['attestations', this.org], {
      query: { attestation_id: attestationId, per_page: 1 },
    });
    const found = body.data?.[0];
    if (found === undefined) throw new ApiError(404, `Attestation '${attestationId}' does not exist.`);
    return found;
  }

  /** An attestation's evidence file: its bytes and the file name the server gives it. */
  async evidence(
    flow: string,
    trail: string,
    attestationId: string,
  ): Promise<{ bytes: Uint8Array; fileName: string | undefined }> {
    const response = await this.request('GET', [
      'attestations',
      this.org,
      flow,
      'trail',
      trail,
      'attestation',
      attestationId,
      'evidence',
    ]);
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    const fileName = encoded === undefined ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : safeDecode(encoded);
    return { bytes: new Uint8Array(await response.arrayBuffer()), fileName };
  }

  /** One artifact of a flow by fingerprint (reference §2.4), its record in `trail` when given. */
  getArtifact(flow: string, fingerprint: string, trail?: string): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>('GET', ['artifacts', this.org, flow, 'fingerprint', fingerprint], {
      query: { trail },
    });
  }

  /** A policy with its versions (reference §2.9). */
  getPolicy(name: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>('GET', ['policies', this.org, name], { signal });
  }

  /** What the template text would do to the flow's trails, at most `limit` of them listed (preview operation). */
  templateImpact(flow: string, template: string, limit: number, signal?: AbortSignal): Promise<TemplateImpact> {
    return this.json<TemplateImpact>('POST', ['flows', this.org, flow, 'template-impact'], {
      query: { limit },
      body: JSON.stringify({ template }),
      signal,
    });
  }

  /** What the policy text would say of the environment's latest snapshot, at most `limit` artifacts listed (preview operation). */
  policyDryRun(environment: string, policy: string, limit: number, signal?: AbortSignal): Promise<PolicyDryRun> {
    return this.json<PolicyDryRun>('POST', ['environments', this.org, environment, 'policy-dry-run'], {
      query: { limit },
      body: JSON.stringify({ policy }),
      signal,
    });
  }

  getEnvironment(environment: string): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>('GET', ['environments', this.org, environment]);
  }

  /** The environment's events (its audit log as JSON), newest first, at most `perPage`. */
  environmentEvents(environment: string, perPage: number): Promise<Record<string, unknown>[]> {
    return this.json<Record<string, unknown>[]>('GET', ['environments', this.org, environment, 'events'], {
      query: { page: 1, per_page: perPage },
    });
  }

  /** Two snapshots of an environment compared (reference §2.7, `GET /env-diff/{org}`): `from` the earlier. */
  snapshotDiff(environment: string, from: number, to: number): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>('GET', ['env-diff', this.org], {
      query: { snappish1: `${environment}#${from}`, snappish2: `${environment}#${to}` },
    });
  }

  /** Plain array (no paging parameters), which every server answers the same way. */
  async listEnvironments(): Promise<Environment[]> {
    const body = await this.json<Environment[] | { environments: Environment[] }>('GET', ['environments', this.org]);
    return Array.isArray(body) ? body : body.environments;
  }

  /** Creates the environment (or updates it: the call is idempotent by name). */
  createEnvironment(environment: string, type: string, description: string): Promise<WriteResult> {
    return this.write('PUT', ['environments', this.org], JSON.stringify({ name: environment, type, description }));
  }

  /** Spec endpoint 2. */
  reportK8s(environment: string, report: unknown): Promise<WriteResult> {
    return this.write('PUT', ['environments', this.org, environment, 'report', 'K8S'], JSON.stringify(report));
  }

  /** Newest first, `perPage` at a time. */
  listSnapshots(environment: string, page: number, perPage: number): Promise<SnapshotListItem[]> {
    return this.json<SnapshotListItem[]>('GET', ['snapshots', this.org, environment], {
      query: { page, per_page: perPage, reverse: 'true' },
    });
  }

  getSnapshot(environment: string, index: number): Promise<Snapshot> {
    return this.json<Snapshot>('GET', ['snapshots', this.org, environment, String(index)]);
  }

  /** Spec endpoint 10: a fingerprint or commit SHA, full or a prefix of at least 5 hex digits. */
  search(value: string): Promise<SearchResult> {
    return this.json<SearchResult>('GET', ['search', this.org, 'sha', value]);
  }

  /** Spec endpoint 12: the CSV text. */
  async auditLog(environment: string): Promise<string> {
    const response = await this.request('GET', ['environments', this.org, environment, 'auditlog']);
    return response.text();
  }

  private async write(method: string, path: string[], body: FormData | string): Promise<WriteResult> {
    const response = await this.request(method, path, { body });
    await response.arrayBuffer();
    return { created: response.status === 201 };
  }

  private async json<T>(method: string, path: string[], options: RequestOptions = {}): Promise<T> {
    const response = await this.request(method, path, options);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        response.status,
        `The server answered ${method} ${response.url} with a body that is not JSON.`,
      );
    }
  }

  private async request(method: string, path: string[], options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = await this.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (typeof options.body === 'string') headers['content-type'] = 'application/json; charset=utf-8';
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: options.body, signal });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new ApiError(0, `Cannot reach ${this.baseUrl}: ${reason(error)}`);
    }
    if (response.status === 200 || response.status === 201) return response;
    throw apiErrorFromBody(response.status, response.statusText, await response.text());
  }

  private url(path: string[], query: Query = {}): string {
    const url = new URL(`${this.baseUrl}/${path.map(encodeURIComponent).join('/')}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }
}

function fileBlob(file: FilePart): Blob {
  return new Blob([file.bytes], { type: file.contentType ?? 'application/octet-stream' });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
