import { CV_MAX_BYTES, type CvType } from '../upstream/form-schemas'

/**
 * A job applicant's CV: checked from its bytes (never its name or the browser's `Content-Type`), then kept in R2
 * under a random `cv/` key that no route serves. Staff reach it through the key the submission carries.
 */

/** The content type a CV is stored with, by the type its bytes show. */
export const CV_CONTENT_TYPES: Record<CvType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
}

/** Where the CVs are kept in the bucket (the retention deletes under it). */
export const CV_PREFIX = 'cv/'

/** A CV that passed the checks: its bytes, the type they show, and the name the visitor's file had (for staff). */
export type CvFile = { bytes: Uint8Array; type: CvType; name: string }

/** Why a posted CV is refused: the `validation.*` key of its field's message. */
export type CvRefusal = 'cv_required' | 'cv_type' | 'cv_too_large'

/**
 * The posted `cv` field as a CV, or why not: no file or an empty one, more than `CV_MAX_BYTES`, or bytes that are no
 * PDF, DOCX or ODT (whatever the file is called).
 */
export async function readCv(posted: unknown): Promise<{ cv: CvFile } | { refused: CvRefusal }> {
  const file = Array.isArray(posted) ? posted.findLast((item) => item instanceof File) : posted
  if (!(file instanceof File) || file.size === 0) return { refused: 'cv_required' }
  if (file.size > CV_MAX_BYTES) return { refused: 'cv_too_large' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const type = cvTypeOf(bytes)
  if (!type) return { refused: 'cv_type' }
  return { cv: { bytes, type, name: fileName(file.name, type) } }
}

/** Keeps a CV in the bucket under a new random key (`cv/<uuid>`), with its type and no name; answers the key. */
export async function storeCv(bucket: R2Bucket, cv: CvFile): Promise<string> {
  const key = `${CV_PREFIX}${crypto.randomUUID()}`
  // Served to staff only, as a download: never shown inline by a browser.
  await bucket.put(key, cv.bytes, { httpMetadata: { contentType: CV_CONTENT_TYPES[cv.type], contentDisposition: 'attachment' } })
  return key
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-
const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text'

/**
 * The type a file's bytes show: a PDF starts with `%PDF-`; a DOCX is a ZIP whose entries include `[Content_Types].xml`
 * and the `word/` part; an ODT is a ZIP whose first entry, stored uncompressed, is `mimetype` holding
 * `application/vnd.oasis.opendocument.text`. Anything else (an executable, a spreadsheet, a ZIP of other files, a
 * damaged archive) is null.
 */
export function cvTypeOf(bytes: Uint8Array): CvType | null {
  if (PDF.every((byte, index) => bytes[index] === byte)) return 'pdf'
  const names = zipEntryNames(bytes)
  if (!names) return null
  if (firstEntryIs(bytes, 'mimetype', ODT_MIMETYPE)) return 'odt'
  if (names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('word/'))) return 'docx'
  return null
}

const u16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8)
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0
const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
const latin1 = new TextDecoder('latin1')

/**
 * The entry names of a ZIP archive's central directory, or null when the bytes are no complete ZIP (no local header
 * first, no end record, a directory outside the file). ZIP64 archives are not read: a CV of at most 5 MB never needs one.
 */
function zipEntryNames(bytes: Uint8Array): string[] | null {
  if (bytes.length < 22 || u32(bytes, 0) !== LOCAL_HEADER) return null
  // The end record is the last 22 bytes, unless an archive comment (at most 65 535 bytes) follows it.
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(bytes, at) === END_OF_DIRECTORY && at + 22 + u16(bytes, at + 20) === bytes.length) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const count = u16(bytes, end + 10)
  const size = u32(bytes, end + 12)
  const offset = u32(bytes, end + 16)
  if (offset + size > end) return null
  const names: string[] = []
  let at = offset
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || u32(bytes, at) !== CENTRAL_HEADER) return null
    const nameLength = u16(bytes, at + 28)
    const next = at + 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32)
    if (next > end) return null
    names.push(latin1.decode(bytes.subarray(at + 46, at + 46 + nameLength)))
    at = next
  }
  return names
}

/** Whether a ZIP's first entry has this name and holds exactly this text, stored as it is (not compressed). */
function firstEntryIs(bytes: Uint8Array, name: string, content: string): boolean {
  if (bytes.length < 30 || u32(bytes, 0) !== LOCAL_HEADER || u16(bytes, 8) !== 0) return false
  const nameLength = u16(bytes, 26)
  const start = 30 + nameLength + u16(bytes, 28)
  const size = u32(bytes, 18)
  if (start + size > bytes.length) return false
  return latin1.decode(bytes.subarray(30, 30 + nameLength)) === name && latin1.decode(bytes.subarray(start, start + size)) === content
}

/**
 * The name of the visitor's file as staff will see it: without folders or control characters, at most 100
 * characters; `cv.pdf` (by its type) when it had none.
 */
function fileName(name: string, type: CvType): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim()
  return [...base].slice(0, 100).join('') || `cv.${type}`
}
