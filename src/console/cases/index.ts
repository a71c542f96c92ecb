import { Hono } from 'hono'
import type { AppEnv } from '../../env'
import { acceptBodiesUpTo } from '../../security/unsafe-requests'
import { consoleGate } from '../guard'
import { downloadAttachment } from './attachment-download'
import { acknowledgeCase, addNote, closeCase, writeToReporter } from './case-changes'
import { casesPage } from './case-list'
import { casePage } from './case-page'

/**
 * The console's cases (case handlers only; issue 10 item 6): the list ordered by the Directive's deadlines, a case
 * opened at the edge with its attachments (downloaded, never shown), the conversation with the reporter, internal
 * notes, acknowledge, write, close, and the case's audit trail. Every reading and change is recorded upstream
 * (docs/api.md "Staff console: cases"); what a handler writes is sealed here with the case's own key.
 *
 * The section's routes here; what each of its pages and changes reads first in case-access.ts, the list in
 * case-list.tsx, one case in case-page.tsx, an attachment's download in attachment-download.ts, a handler's changes
 * in case-changes.ts.
 */

/** The largest form a case accepts: a message of 10,000 characters, each up to 4 UTF-8 bytes, percent-encoded. */
export const CASE_FORM_BYTES = 128 * 1024

/** Case handlers only: anyone else is sent to sign in, or shown the 403 page (src/console/guard.ts). */
const handlersOnly = consoleGate('case_handler')

/** The cases section, mounted at `/_console/cases`. A form's body limit comes before the guard: too large is a 413 for anyone. */
export const casesSection = new Hono<AppEnv>()
  .get('/', handlersOnly, casesPage)
  .get('/:id', handlersOnly, casePage)
  .get('/:id/attachments/:attachment', handlersOnly, downloadAttachment)
  .post('/:id/acknowledge', handlersOnly, acknowledgeCase)
  .post('/:id/messages', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, writeToReporter)
  .post('/:id/notes', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, addNote)
  .post('/:id/close', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, closeCase)
