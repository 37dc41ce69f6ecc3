import {
  UPLOAD_HEAD_BYTES,
  UPLOAD_TAIL_BYTES,
  checkUploadHead,
  checkUploadTail,
  type FileType,
  type UploadKind,
  type UploadRefusal,
} from '#contract/uploads';

/**
 * The gateway's checks, made in the browser before a byte is sent: a file too large or not what
 * its name says is refused at once, in words, instead of after a long upload. The gateway checks
 * again whatever the browser says.
 */

export type UploadProblem = UploadRefusal | { reason: 'tooLarge'; maxBytes: number };

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** `maxBytes` null: the limit is not known yet (the gateway still enforces it). */
export async function precheckUpload(
  file: Blob,
  name: string,
  kind: UploadKind,
  maxBytes: number | null,
): Promise<{ type: FileType } | UploadProblem> {
  if (maxBytes !== null && maxBytes > 0 && file.size > maxBytes) return { reason: 'tooLarge', maxBytes };
  const head = await bytesOf(file.slice(0, UPLOAD_HEAD_BYTES));
  const checked = checkUploadHead(kind, name, head);
  if (!('type' in checked)) return checked;
  if (checked.type.needsTail) {
    const tail = await bytesOf(file.slice(Math.max(0, file.size - UPLOAD_TAIL_BYTES)));
    const refusal = checkUploadTail(checked.type, head, tail);
    if (refusal) return refusal;
  }
  return checked;
}
