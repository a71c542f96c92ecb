import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { logEvent } from '../../ops/log'
import { ATTACHMENT_KEY_FORMAT } from '../../../contract/whistleblower-schemas'
import { openAttachment } from '../../whistleblower/case-file'
import { callsOf, caseId, fileOf, opened, caseKeyring } from './case-access'

/**
 * `GET /_console/cases/{id}/attachments/{attachment}`: the attachment opened and answered as a download (recorded
 * upstream as `file_downloaded`): its sealed name, `application/octet-stream` (what the reporter said it is is not
 * trusted), never inline, never kept.
 */
export async function downloadAttachment(c: Context<AppEnv>): Promise<Response> {
  const id = caseId(c)
  const attachmentId = caseId(c, 'attachment')
  const keyring = caseKeyring(c)
  const calls = callsOf(c)
  const location = await calls.attachment(id, attachmentId)
  if (!location) throw PageError.notFound('')
  // Only a whistleblower attachment's key is read from the bucket (never a CV's, whatever an API answers).
  if (!ATTACHMENT_KEY_FORMAT.test(location.object_key)) {
    logEvent('error', 'attachment_key_invalid', { case: id, attachment: attachmentId })
    throw PageError.notFound('')
  }
  const file = await fileOf(c, id, 'download')
  const object = await c.env.FILES.get(location.object_key)
  if (!object) {
    logEvent('error', 'attachment_missing', { case: id, attachment: attachmentId })
    throw PageError.notFound('')
  }
  const { name, bytes } = await opened(
    openAttachment(keyring, file, location, new Uint8Array(await object.arrayBuffer())),
    id,
  )
  return c.body(bytes, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': contentDisposition(name),
    'Content-Length': String(bytes.length),
  })
}

/** The most characters (code points, not UTF-16 units) of a download's name. */
const NAME_CODE_POINTS = 200

/**
 * `attachment` with an ASCII fallback name and the real one in UTF-8 (RFC 6266, RFC 8187), for any name a reporter
 * sealed: control characters (CR/LF included), slashes and lone surrogates (a code point of one UTF-16
 * unit in that range) become `_`, so `encodeURIComponent` cannot throw; the name is cut by code points, never inside a
 * surrogate pair.
 */
export function contentDisposition(name: string): string {
  const clean =
    [...name]
      .slice(0, NAME_CODE_POINTS)
      .map((point) => (/^[\p{Cc}\p{Cs}/\\]$/u.test(point) ? '_' : point))
      .join('') || 'attachment'
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_')
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
