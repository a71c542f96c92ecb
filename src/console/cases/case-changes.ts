import type { Context } from 'hono'
import { configOf } from '../../config'
import type { AppEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { readForm } from '../../forms/read-form'
import { sendRedirect } from '../../render/respond'
import { unlessRefused } from '../../upstream/errors'
import { valueErrors } from '../../../contract/fields'
import type { CaseFile } from '../../../contract/staff-schemas'
import { messageText } from '../../../contract/whistleblower-schemas'
import { notifyOf, sealForCase } from '../../whistleblower/case-file'
import { callsOf, caseId, casePath, fileOf, opened, caseKeyring } from './case-access'
import { type Draft, showCase } from './case-page'

/** A handler's changes to a case: acknowledged, a message to the reporter, an internal note, closed; each sealed here. */

/** `POST /_console/cases/{id}/acknowledge`. */
export async function acknowledgeCase(c: Context<AppEnv>): Promise<Response> {
  const id = caseId(c)
  const file = await fileOf(c, id, 'acknowledge')
  const notify = await notifyFor(c, file)
  const { refused } = await unlessRefused(callsOf(c).acknowledge(id, notify), [409])
  return backToCase(
    c,
    id,
    refused ? { refused: refused.rejection.code ?? 'already_acknowledged' } : { done: 'acknowledged' },
  )
}

/** `POST /_console/cases/{id}/messages`: a message to the reporter, sealed. */
export function writeToReporter(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'message')
}

/** `POST /_console/cases/{id}/notes`: an internal note, sealed. */
export function addNote(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'note')
}

/** `POST /_console/cases/{id}/close`: the outcome, sealed. */
export function closeCase(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'close')
}

async function write(c: Context<AppEnv>, form: Draft['form']): Promise<Response> {
  const id = caseId(c)
  const typed = (await readForm(c)).text ?? ''
  const text = messageText.safeParse(typed)
  if (!text.success) return showCase(c, { form, text: typed, errors: valueErrors(text.error) })
  const keyring = caseKeyring(c)
  const file = await fileOf(c, id, form)
  const sealed = await opened(sealForCase(keyring, file, text.data), id)
  const calls = callsOf(c)
  if (form === 'note') {
    await calls.write(id, { author: 'note', sealed_body: sealed, notify: null })
    return backToCase(c, id, { done: 'note_added' }, '#notes')
  }
  const notify = await notifyFor(c, file)
  const { refused } = await unlessRefused(
    form === 'message'
      ? calls.write(id, { author: 'handler', sealed_body: sealed, notify })
      : calls.close(id, { sealed_outcome: sealed, notify }),
    [409],
  )
  if (refused) return backToCase(c, id, { refused: refused.rejection.code ?? 'case_closed' })
  return backToCase(
    c,
    id,
    { done: form === 'message' ? 'message_sent' : 'closed' },
    form === 'message' ? '#conversation' : '',
  )
}

/** The reporter's address and status page for a "there is news" mail, or null; 503 without a public origin to link. */
async function notifyFor(c: Context<AppEnv>, file: CaseFile) {
  const origin = configOf(c.env).publicOrigin
  if (file.sealed_notify && !origin) throw PageError.maintenance()
  return opened(notifyOf(caseKeyring(c), origin, file), file.id)
}

/** 303 back to the case with a flash. */
function backToCase(
  c: Context<AppEnv>,
  id: number,
  flash: { done: string } | { refused: string },
  anchor = '',
): Response {
  const [name, value] = Object.entries(flash)[0] as [string, string]
  return sendRedirect(c, `${casePath(id)}?${name}=${encodeURIComponent(value)}${anchor}`, 303)
}
