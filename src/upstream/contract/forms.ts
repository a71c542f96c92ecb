import type { ReadOptions, Upstream } from '../client'
import {
  type ContactMessage,
  type JobApplication,
  jobsAnswer,
  type PartnerApplication,
  referenceAnswer,
  type TestRideRequest,
} from '../../../contract/form-schemas'
import { listOf } from './answers'

/** A stored submission's reference, or null when the API does not know the call (404). */
const referenceOf = async (answer: Promise<{ data: { reference: string } } | null>) =>
  (await answer)?.data.reference ?? null

/**
 * The lead forms of a market: its open positions, and the four forms' submissions. Each answers the submission's
 * reference; the same `submission_key` twice answers the first one's. Refusals (invalid input, a closed day) throw
 * `UpstreamError` with the fields' message keys.
 *
 * @example
 * const reference = await formCalls(marketClient).contact(message)
 */
export const formCalls = (client: Upstream) => ({
  /** `GET api/jobs`: the market's open positions. */
  jobs: (options?: ReadOptions) => listOf(client.get('jobs', jobsAnswer, options)),
  /** `POST api/forms/test-ride`. */
  testRide: (request: TestRideRequest) => referenceOf(client.send('POST', 'forms/test-ride', request, referenceAnswer)),
  /** `POST api/forms/partner`: a dealer's or a distributor's application. */
  partner: (application: PartnerApplication) =>
    referenceOf(client.send('POST', 'forms/partner', application, referenceAnswer)),
  /**
   * `POST api/forms/job`: the CV is already in R2; the call carries its key. Answers whether this call stored the
   * application (`created`), so that the CV of a repeated one is not kept.
   */
  job: async (application: JobApplication) =>
    (await client.send('POST', 'forms/job', application, referenceAnswer))?.data ?? null,
  /** `POST api/forms/contact`. */
  contact: (message: ContactMessage) => referenceOf(client.send('POST', 'forms/contact', message, referenceAnswer)),
})
