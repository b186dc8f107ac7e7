// A trail's audit package and audit report (reference §2.2): one gzip-compressed tar archive
// holding the trail as the API shows it, every attestation of the trail, and each attestation's
// evidence file, so an auditor gets the whole record of one trail in one download (streamed as it
// is packed); and the same record as a readable PDF report.
import type { Readable } from 'node:stream';
import type { Org } from '../store/orgs.ts';
import { attestationView } from '../views/attestationView.ts';
import { auditPackageOf, segment } from '../views/auditPackage.ts';
import { pdfOfLines } from '../views/auditPdf.ts';
import { auditReportLines } from '../views/auditReport.ts';
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
      const evidence = attestations.flatMap(({ name, id, evidence: file }) =>
        file === null
          ? []
          : [
              {
                path: `evidence/${segment(name)}/${id}/${segment(file.filename)}`,
                sha256: file.sha256,
                missingLine: `${name} ${id}: ${file.filename} (sha256 ${file.sha256})`,
              },
            ],
      );
      return {
        filename: `${segment(flow.name)}-${segment(trail.name)}-audit-package.tgz`,
        content: auditPackageOf({
          mtime: new Date(trail.lastModifiedAt * 1000),
          documents: [
            { path: 'trail.json', text: trailJson },
            { path: 'attestations.json', text: attestationsJson },
          ],
          evidence,
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
