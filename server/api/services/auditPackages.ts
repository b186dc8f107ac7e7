// A trail's audit package and audit report (reference §2.2): one gzip-compressed tar archive
// holding the trail as the API shows it, every attestation of the trail, and each attestation's
// evidence file, so an auditor gets the whole record of one trail in one download (streamed as it
// is packed); and the same record as a readable PDF report. An artifact's audit package is the
// same for one artifact (reference §8.4).
import type { Readable } from 'node:stream';
import { artifactNotFound } from '../notFound.ts';
import type { Org } from '../store/orgs.ts';
import { attestationView } from '../views/attestationView.ts';
import { artifactView, attestationsOf } from '../views/artifactView.ts';
import { auditPackageOf, packedEvidenceOf, segment } from '../views/auditPackage.ts';
import { pdfOfLines } from '../views/auditPdf.ts';
import { auditReportLines } from '../views/auditReport.ts';
import { artifactFactsReader } from './artifactFacts.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404, trailOr404 } from './lookups.ts';
import { trailAnswerOf } from './trailRendering.ts';

/** A file to download: the name it is saved under and its content, read as the client takes it. */
export interface AuditFile {
  filename: string;
  content: Readable;
}

export function auditPackageService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  /** The flow and trail the names name, with the service's not-found messages. */
  const trailOf = async (org: Org, flowName: string, trailName: string) => {
    const flow = await flowOr404(store, org, flowName);
    return { flow, trail: await trailOr404(store, org, flow, trailName) };
  };

  return {
    /** The trail's audit package (.tgz): trail.json, attestations.json and every evidence file. */
    async packageOf(org: Org, flowName: string, trailName: string): Promise<AuditFile> {
      const { flow, trail } = await trailOf(org, flowName, trailName);
      const host = publicUrl();
      // The documents are read before the first byte is sent, so a failure there is still a JSON
      // error; the evidence files are read as the package is.
      const trailJson = JSON.stringify(await trailAnswerOf(store, host, org.name, flow, trail), null, 2);
      const attestations = await store.attestations.inTrail(trail.id);
      const attestationsJson = JSON.stringify(
        attestations.map((attestation) => attestationView(host, org.name, attestation)),
        null,
        2,
      );
      return {
        filename: `${segment(flow.name)}-${segment(trail.name)}-audit-package.tgz`,
        content: auditPackageOf({
          mtime: new Date(trail.lastModifiedAt * 1000),
          documents: [
            { path: 'trail.json', text: trailJson },
            { path: 'attestations.json', text: attestationsJson },
          ],
          evidence: packedEvidenceOf(attestations),
          open: (sha256) => store.evidence.open(sha256),
        }),
      };
    },

    /**
     * An artifact's audit package (.tgz, reference §8.4): artifact.json as the artifact lookup
     * answers it, attestations.json with the attestations of its trail about it (by fingerprint,
     * or through its template slot), and their evidence files, streamed as the trail's is. The
     * artifact is the flow's latest with a fingerprint that starts with `prefix`.
     */
    async artifactPackageOf(org: Org, flowName: string, prefix: string): Promise<AuditFile> {
      const flow = await flowOr404(store, org, flowName);
      const [artifact] = await store.artifacts.byFingerprintPrefix(org.id, prefix.toLowerCase(), flow.id);
      if (artifact === undefined) throw artifactNotFound(org.name, prefix, flow.name);
      const host = publicUrl();
      const facts = await artifactFactsReader(store)(artifact);
      const about = attestationsOf(artifact, facts.attestations);
      return {
        filename: `${segment(flow.name)}-${artifact.fingerprint}-audit-package.tgz`,
        content: auditPackageOf({
          mtime: new Date(artifact.lastModifiedAt * 1000),
          documents: [
            { path: 'artifact.json', text: JSON.stringify(artifactView(host, org.name, artifact, facts), null, 2) },
            {
              path: 'attestations.json',
              text: JSON.stringify(
                about.map((attestation) => attestationView(host, org.name, attestation)),
                null,
                2,
              ),
            },
          ],
          evidence: packedEvidenceOf(about),
          open: (sha256) => store.evidence.open(sha256),
        }),
      };
    },

    /** The trail's audit report (PDF), from the answer the trail endpoint gives, which the contract tests hold to Trail. */
    async reportOf(org: Org, flowName: string, trailName: string): Promise<AuditFile> {
      const { flow, trail } = await trailOf(org, flowName, trailName);
      const view = await trailAnswerOf(store, publicUrl(), org.name, flow, trail);
      const attestations = await store.attestations.inTrail(trail.id);
      return {
        filename: `${segment(flow.name)}-${segment(trail.name)}-audit.pdf`,
        content: pdfOfLines(auditReportLines(org.name, flow.name, view, attestations)),
      };
    },
  };
}
