import type { Upstream } from '../client'
import {
  type CaseKey,
  type NewReportRequest,
  newReportAnswer,
  type ReplyRequest,
  replyAnswer,
  reporterCaseAnswer,
} from '../../../contract/whistleblower-schemas'

/**
 * The reporter's side of the whistleblower channel, for one market (docs/api.md "Whistleblower channel"). Every text
 * goes out sealed by the Worker (src/whistleblower/sealed.ts); these calls are never cached. Refusals throw
 * `UpstreamError` (`rejected`: 422 with the fields' keys, 409 `case_closed`).
 *
 * @example
 * const stored = await whistleblowerCalls(marketClient).report(request)
 */
export const whistleblowerCalls = (client: Upstream) => ({
  /**
   * `POST api/whistleblower/reports`: the receipt code stored and whether this call stored the report (`created`; the
   * same submission key again answers the first report's code); null when the API has no channel for the market.
   */
  report: async (request: NewReportRequest) =>
    (await client.send('POST', 'whistleblower/reports', request, newReportAnswer))?.data ?? null,
  /** `POST api/whistleblower/status`: the case of a receipt code and passphrase; null for any wrong pair (404). */
  status: async (key: CaseKey) =>
    (await client.send('POST', 'whistleblower/status', key, reporterCaseAnswer))?.data ?? null,
  /**
   * `POST api/whistleblower/replies`: the reporter's answer, with its files; whether this call stored it (the same
   * submission key stores one). Null for a wrong pair (404).
   */
  reply: async (request: ReplyRequest) =>
    (await client.send('POST', 'whistleblower/replies', request, replyAnswer))?.data ?? null,
})
