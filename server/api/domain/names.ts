// Name patterns of the hosted service (reference §1.7), as route schemas use them.
export const FLOW_NAME = '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$';
export const ARTIFACT_NAME = '^[a-zA-Z0-9][a-zA-Z0-9._~-]*$';
export const ATTESTATION_NAME = '^[a-zA-Z0-9_,-]+$';
export const FINGERPRINT = '^[a-f0-9]{64}$';
export const HEX_PREFIX = '^[a-fA-F0-9]{5,64}$';
