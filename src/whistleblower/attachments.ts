import { errorName, logEvent } from '../ops/log'
import { UpstreamError } from '../upstream/errors'
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX, type AttachmentRecord } from '../../contract/whistleblower-schemas'
import { sealBytes, sealText } from './sealed'

/**
 * A reporter's attachments: checked (at most ATTACHMENTS_MAX files of at most ATTACHMENT_MAX_BYTES each), sealed with
 * the report's key and kept in R2 under a random `wb/<uuid>` key that no route serves. Their names and types are sealed
 * too (`sealed_meta`); the bucket holds only ciphertext, with no name and a neutral type.
 */

/** Where attachments are kept in the bucket (the lead forms' retention never touches it). */
export const ATTACHMENT_PREFIX = 'wb/'

/** What sealing adds to a file: its IV (12 bytes) and AES-GCM's tag (16). */
export const SEALING_OVERHEAD = 28

/**
 * The files posted under `name` that carry something: an empty file input sends a part without a name or bytes, which
 * is no attachment.
 */
export function postedFiles(posted: unknown): File[] {
  const items = Array.isArray(posted) ? posted : [posted]
  return items.filter((item): item is File => item instanceof File && item.size > 0)
}

/** Why posted files are refused (the `validation.*` key of their field's message), or null. */
export function refusedFiles(files: readonly File[]): 'attachments_count' | 'attachment_too_large' | null {
  if (files.length > ATTACHMENTS_MAX) return 'attachments_count'
  if (files.some((file) => file.size > ATTACHMENT_MAX_BYTES)) return 'attachment_too_large'
  return null
}

/**
 * Seals each file with the report's key and puts it in the bucket; answers what the API is told. When the bucket
 * fails, what was already put is deleted and the failure is the form's "not sent, try again" (503).
 */
export async function storeAttachments(
  bucket: R2Bucket,
  key: CryptoKey,
  files: readonly File[],
): Promise<AttachmentRecord[]> {
  const records: AttachmentRecord[] = []
  try {
    for (const file of files) {
      const sealed = await sealBytes(key, new Uint8Array(await file.arrayBuffer()))
      const objectKey = `${ATTACHMENT_PREFIX}${crypto.randomUUID()}`
      await bucket.put(objectKey, sealed, {
        httpMetadata: { contentType: 'application/octet-stream', contentDisposition: 'attachment' },
      })
      records.push({
        object_key: objectKey,
        sealed_meta: await sealText(key, JSON.stringify({ name: fileName(file.name), type: fileType(file.type) })),
        size: sealed.byteLength,
      })
    }
    return records
  } catch (error) {
    logEvent('error', 'attachment_not_stored', { error: errorName(error) })
    await deleteAttachments(bucket, records)
    throw new UpstreamError('unavailable', 'files')
  }
}

/** Deletes stored attachments (the API refused them, or stored the same submission before); failures are logged. */
export async function deleteAttachments(bucket: R2Bucket, records: readonly AttachmentRecord[]): Promise<void> {
  if (records.length === 0) return
  await bucket
    .delete(records.map((record) => record.object_key))
    .catch((error: unknown) => logEvent('error', 'attachment_not_deleted', { error: errorName(error) }))
}

/** A file's name as the case shows it: without folders or control characters, at most 120 characters. */
function fileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim()
  return [...base].slice(0, 120).join('') || 'attachment'
}

/** The type the browser gave, when it looks like one (staff download every file as an attachment anyway). */
const fileType = (type: string) =>
  /^[a-z]+\/[a-z0-9.+-]{1,100}$/i.test(type) ? type.toLowerCase() : 'application/octet-stream'
