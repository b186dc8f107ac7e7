export { checkScanAttestation, commitOrFingerprintRequired } from './scan.ts';
