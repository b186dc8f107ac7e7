// A file a client uploaded in a multipart request, held whole (http/multipart.ts bounds its size):
// http/ reads it, the services keep it (an attestation's evidence).
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}
