// Attestations (spec endpoints 1 and 5, reference §2.3): recorded (services/attest.ts), read by
// name in a trail or on an artifact, listed per flow (paged) and per org (a cursor), and their
// evidence files opened for download.
import type { Readable } from 'node:stream';
import type {
  Attestation as AttestationAnswer,
  AttestationsByCommit,
  FlowAttestationRecord,
} from '../../../shared/contract/types.ts';
import { regexProblem } from '../../../shared/regex/index.ts';
import { deliverSoon } from '../delivery/notifications.ts';
import { ApiError, badRequest } from '../errors.ts';
import { attestationNotFound, evidenceNotFound } from '../notFound.ts';
import type { Org } from '../store/orgs.ts';
import type { UploadedFile } from '../uploads.ts';
import { attestationsOf } from '../views/artifactView.ts';
import { attestationsByCommit, attestationView, flowAttestationRecord } from '../views/attestationView.ts';
import { pageLinks, paginationOf, type Pagination } from '../views/paging.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { recordAttestation, type UrlKind } from './attest.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404, listedFlowOr404, trailOr404 } from './lookups.ts';

/** The filters and cursor of the org's attestation list (spec endpoint 1's GET). */
export interface OrgAttestationQuery {
  attestation_id?: string;
  after?: string;
  per_page?: number;
  name?: string;
  name_regex?: string;
  flow?: string;
  type?: string;
  is_compliant?: boolean;
  from_timestamp?: number;
  to_timestamp?: number;
}

/** What the attestations by commit are selected by (reference §8.4), as the client sends it. */
export interface CriteriaFilter {
  flow_name?: string;
  attestation_type?: string;
  /** An attestation's name, or `slot.name` for one about the template's artifact slot. */
  attestation_name?: string;
  commit_list?: readonly string[];
}

/** `slot.name` as the template slot and the name (attestation names hold no dot); a plain name names no slot. */
function slotAndName(qualified: string | undefined): { slot?: string; name?: string } {
  const dot = qualified?.lastIndexOf('.') ?? -1;
  if (qualified === undefined || dot === -1) return { name: qualified };
  return { slot: qualified.slice(0, dot), name: qualified.slice(dot + 1) };
}

/** An attestation's evidence file, to download. */
export interface EvidenceFile {
  sha256: string;
  filename: string;
  content: Readable;
  size: number;
}

export function attestationService(deps: Pick<ServiceDeps, 'store' | 'publicUrl' | 'deliverer'>) {
  const { store, publicUrl } = deps;

  return {
    /** Records the attestation (services/attest.ts), then wakes the deliverer for the deliveries it stored. */
    async record(
      org: Org,
      flowName: string,
      trailName: string,
      kind: UrlKind,
      data: unknown,
      attachment: UploadedFile | undefined,
      reportedBy: string,
    ): Promise<void> {
      const { deliveries } = await recordAttestation(deps, {
        org,
        flowName,
        trailName,
        kind,
        data,
        attachment,
        reportedBy,
      });
      deliverSoon(deps, deliveries);
    },

    /** Every version of the trail's attestations of that name. */
    async versionsOf(org: Org, flowName: string, trailName: string, name: string): Promise<AttestationAnswer[]> {
      const flow = await flowOr404(store, org, flowName);
      const trail = await trailOr404(store, org, flow, trailName);
      const host = publicUrl();
      return (await store.attestations.versions(trail.id, name)).map((attestation) =>
        attestationView(host, org.name, attestation),
      );
    },

    /** The attestations of that name about the flow's artifacts with this fingerprint, newest first. */
    async ofArtifact(org: Org, flowName: string, fingerprint: string, name: string): Promise<AttestationAnswer[]> {
      const flow = await flowOr404(store, org, flowName);
      const artifacts = (await store.artifacts.byFingerprintPrefix(org.id, fingerprint, flow.id)).filter(
        (artifact) => artifact.fingerprint === fingerprint,
      );
      const host = publicUrl();
      const seen = new Set<string>();
      const found = [];
      for (const artifact of artifacts) {
        for (const attestation of attestationsOf(artifact, await store.attestations.inTrail(artifact.trailId))) {
          if (attestation.name !== name || seen.has(attestation.id)) continue;
          seen.add(attestation.id);
          found.push(attestation);
        }
      }
      return found
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((attestation) => attestationView(host, org.name, attestation));
    },

    /** The evidence file of the trail's attestation `id`; 404 when it has none or the file is gone. */
    async evidenceOf(org: Org, flowName: string, trailName: string, id: string): Promise<EvidenceFile> {
      const flow = await flowOr404(store, org, flowName);
      const trail = await trailOr404(store, org, flow, trailName);
      const attestation = await store.attestations.byId(org.id, id);
      if (attestation === undefined || attestation.trailId !== trail.id) throw attestationNotFound(trail.name, id);
      if (attestation.evidence === null) throw evidenceNotFound(id);
      const file = await store.evidence.open(attestation.evidence.sha256);
      if (file === undefined) {
        throw new ApiError(
          404,
          `The evidence file of attestation '${id}' is missing from the server's evidence directory (sha256 ${attestation.evidence.sha256}): restore it from a backup of that directory`,
        );
      }
      return { ...attestation.evidence, content: file.content, size: file.size };
    },

    /** A page of the flow's attestations reported within `window`, with `_links` built on the request's URL. */
    async flowPageOf(
      org: Org,
      flowName: string,
      window: { from?: number; to?: number },
      page: { page: number; perPage: number; offset: number },
      requestUrl: string,
    ): Promise<{
      data: Array<FlowAttestationRecord | Placeholder>;
      _links: Record<string, { href: string }>;
      pagination: Pagination;
    }> {
      const flow = await listedFlowOr404(store, org, flowName);
      const { total, attestations } = await store.attestations.pageOfFlow(flow.id, window, page.perPage, page.offset);
      const host = publicUrl();
      const pagination = paginationOf(total, page.page, page.perPage);
      return {
        data: await renderEach(
          attestations,
          (attestation) => attestation.id,
          (attestation) => flowAttestationRecord(host, org.name, attestation),
        ),
        _links: pageLinks(host, requestUrl, pagination),
        pagination,
      };
    },

    /** The org's attestations that pass the query, `per_page` of them after the cursor, and the link to the next. */
    async orgPageOf(
      org: Org,
      query: OrgAttestationQuery,
    ): Promise<{ data: AttestationAnswer[]; _links: Record<string, { href: string }> }> {
      const regexRefused = query.name_regex === undefined ? undefined : regexProblem(query.name_regex);
      if (regexRefused !== undefined)
        throw badRequest(
          regexRefused.unsupported
            ? `Unsupported name_regex: '${query.name_regex}': ${regexRefused.detail}`
            : `Invalid name_regex: '${query.name_regex}'`,
        );
      const flowId = query.flow === undefined ? undefined : (await flowOr404(store, org, query.flow)).id;
      const perPage = query.per_page ?? 20;
      const matches = await store.attestations.query(
        org.id,
        {
          id: query.attestation_id,
          name: query.name,
          nameRegex: query.name_regex,
          flowId,
          type: query.type,
          isCompliant: query.is_compliant,
          from: query.from_timestamp,
          to: query.to_timestamp,
          afterId: query.after,
        },
        perPage + 1,
      );
      const page = matches.slice(0, perPage);
      const host = publicUrl();
      const base = `${host}/api/v2/attestations/${encodeURIComponent(org.name)}`;
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (value !== undefined && key !== 'after') params.set(key, String(value));
      const links: Record<string, { href: string }> = { self: { href: `${base}?${params.toString()}` } };
      if (matches.length > perPage) {
        params.set('after', page[page.length - 1].id);
        links.next = { href: `${base}?${params.toString()}` };
      }
      return { data: page.map((attestation) => attestationView(host, org.name, attestation)), _links: links };
    },

    /** The attestations the filter selects, under the commit each speaks about, oldest first. */
    async byCommit(org: Org, filter: CriteriaFilter): Promise<AttestationsByCommit> {
      const flowId = filter.flow_name === undefined ? undefined : (await flowOr404(store, org, filter.flow_name)).id;
      const { slot, name } = slotAndName(filter.attestation_name);
      const selected = await store.attestations.forCriteria(org.id, {
        flowId,
        type: filter.attestation_type,
        name,
        targetArtifact: slot,
        commits: filter.commit_list,
      });
      return attestationsByCommit(selected);
    },
  };
}
