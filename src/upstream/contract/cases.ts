import type { Upstream } from '../client'
import {
  type acknowledgeRequest,
  attachmentLocationAnswer,
  caseChangeAnswer,
  caseFileAnswer,
  openCaseListAnswer,
  closedCaseListAnswer,
  type caseMessageRequest,
  type closeCaseRequest,
} from '../../../contract/staff-schemas'
import type { z } from 'zod'
import { dataOf, pagedOf, query, segment } from './answers'

/** Why the Worker reads a case besides showing it (the API records it as the reading's detail). */
export type CaseReadPurpose = 'acknowledge' | 'message' | 'note' | 'close' | 'download'

type Notify = z.infer<typeof acknowledgeRequest>['notify']

/**
 * The whistleblower channel's cases, for a case handler: over the unbound client with the staff member's token (staff
 * calls name no market). Every call is recorded upstream in the case's audit trail. Reads answer null for a case (or an
 * attachment) that does not exist; refusals (a closed case, `409 case_closed`; another role, 403) throw `UpstreamError`.
 *
 * @example
 * const file = await caseCalls(c.var.staffApi).file(42)
 */
export const caseCalls = (client: Upstream) => ({
  /**
   * `GET api/staff/cases?cursor=`: a page of the open cases, the next deadline soonest due first, by keyset; nothing
   * the reporter wrote.
   */
  open: (cursor?: string) => pagedOf(client.get(`staff/cases${query({ cursor })}`, openCaseListAnswer)),
  /** `GET api/staff/cases?state=closed&cursor=`: a page of the closed cases, newest first, by keyset. */
  closed: (cursor?: string) =>
    pagedOf(client.get(`staff/cases${query({ state: 'closed', cursor })}`, closedCaseListAnswer)),
  /**
   * `GET api/staff/cases/{id}`: the case as stored (sealed), recorded as `opened`; with a purpose when the Worker reads
   * it to make a change or open an attachment (`?for=message`), recorded with it.
   */
  file: (id: number, purpose?: CaseReadPurpose) =>
    dataOf(client.get(`staff/cases/${segment(id)}${query({ for: purpose })}`, caseFileAnswer)),
  /** `GET api/staff/cases/{id}/attachments/{attachment}`: where its sealed bytes are, recorded as `file_downloaded`. */
  attachment: (id: number, attachment: number) =>
    dataOf(client.get(`staff/cases/${segment(id)}/attachments/${segment(attachment)}`, attachmentLocationAnswer)),
  /** `POST api/staff/cases/{id}/acknowledge`: received → acknowledged (`409 already_acknowledged`, `case_closed`). */
  acknowledge: (id: number, notify: Notify) =>
    dataOf(client.send('POST', `staff/cases/${segment(id)}/acknowledge`, { notify }, caseChangeAnswer)),
  /** `POST api/staff/cases/{id}/messages`: a sealed message to the reporter (`handler`) or an internal `note`. */
  write: (id: number, message: z.infer<typeof caseMessageRequest>) =>
    dataOf(client.send('POST', `staff/cases/${segment(id)}/messages`, message, caseChangeAnswer)),
  /** `POST api/staff/cases/{id}/close`: the sealed outcome (`409 case_closed`). */
  close: (id: number, request: z.infer<typeof closeCaseRequest>) =>
    dataOf(client.send('POST', `staff/cases/${segment(id)}/close`, request, caseChangeAnswer)),
})

export type CaseCalls = ReturnType<typeof caseCalls>
