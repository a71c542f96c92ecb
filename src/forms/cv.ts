import { CV_MAX_BYTES, type CvType } from '../../contract/form-schemas'
import { expansionOf, firstEntryIs, type ZipEntry, zipEntries } from './zip-archive'

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
export type CvRefusal = 'cv_required' | 'cv_type' | 'cv_too_large' | 'cv_expands'

/**
 * How far a DOCX or ODT may expand once opened, all its entries together, and how many entries it may have. A CV's
 * text is a few hundred kilobytes of XML and its pictures hardly expand at all; staff's word processors open what
 * is stored, so a file of 200 KB that expands to 200 MiB never reaches them.
 */
export const CV_MAX_EXPANDED_BYTES = 20 * 1024 * 1024
export const CV_MAX_ENTRIES = 1000

/**
 * The posted `cv` field as a CV, or why not: no file or an empty one, more than `CV_MAX_BYTES`, bytes that are no
 * PDF, DOCX or ODT (whatever the file is called, a damaged or forged archive included), or a DOCX or ODT that expands
 * beyond `CV_MAX_EXPANDED_BYTES` or has more than `CV_MAX_ENTRIES` entries.
 */
export async function readCv(posted: unknown): Promise<{ cv: CvFile } | { refused: CvRefusal }> {
  const file = Array.isArray(posted) ? posted.findLast((item) => item instanceof File) : posted
  if (!(file instanceof File) || file.size === 0) return { refused: 'cv_required' }
  if (file.size > CV_MAX_BYTES) return { refused: 'cv_too_large' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const entries = zipEntries(bytes)
  const type = cvTypeOf(bytes, entries)
  if (!type) return { refused: 'cv_type' }
  if (entries && type !== 'pdf') {
    const expansion = expansionOf(entries, { maxBytes: CV_MAX_EXPANDED_BYTES, maxEntries: CV_MAX_ENTRIES })
    if (expansion !== 'within') return { refused: expansion === 'too_large' ? 'cv_expands' : 'cv_type' }
  }
  return { cv: { bytes, type, name: fileName(file.name, type) } }
}

/** Keeps a CV in the bucket under a new random key (`cv/<uuid>`), with its type and no name; answers the key. */
export async function storeCv(bucket: R2Bucket, cv: CvFile): Promise<string> {
  const key = `${CV_PREFIX}${crypto.randomUUID()}`
  // Served to staff only, as a download: never shown inline by a browser.
  await bucket.put(key, cv.bytes, {
    httpMetadata: { contentType: CV_CONTENT_TYPES[cv.type], contentDisposition: 'attachment' },
  })
  return key
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-
const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text'

/**
 * The type a file's bytes (and their ZIP entries) show: a PDF starts with `%PDF-`; a DOCX is a ZIP whose entries
 * include `[Content_Types].xml` and the `word/` part; an ODT is a ZIP whose first entry, stored uncompressed, is `mimetype` holding
 * `application/vnd.oasis.opendocument.text`. Anything else (an executable, a spreadsheet, a ZIP of other files, a
 * damaged archive) is null.
 */
function cvTypeOf(bytes: Uint8Array, entries: ZipEntry[] | null): CvType | null {
  if (PDF.every((byte, index) => bytes[index] === byte)) return 'pdf'
  if (!entries) return null
  if (firstEntryIs(entries, 'mimetype', ODT_MIMETYPE)) return 'odt'
  const names = entries.map((entry) => entry.name)
  if (names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('word/'))) return 'docx'
  return null
}

/**
 * The name of the visitor's file as staff will see it: without folders or control characters, at most 100
 * characters; `cv.pdf` (by its type) when it had none.
 */
function fileName(name: string, type: CvType): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim()
  return [...base].slice(0, 100).join('') || `cv.${type}`
}
