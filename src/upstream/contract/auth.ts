import type { Upstream } from '../client'
import {
  acknowledgedAnswer,
  confirmationAnswer,
  type LoginRequest,
  type RegisterRequest,
  resetPasswordAnswer,
  resetTokenAnswer,
} from '../../../contract/account-schemas'
import { loginAnswer } from '../../../contract/schemas'
import { userRecordAnswer } from '../readers/user-record'
import { dataOf, segment } from './answers'

/**
 * Logging in and out and the password reset, for the market the visitor speaks for. Refusals (wrong credentials, a
 * spent link) throw `UpstreamError` with `failure: 'rejected'`: callers await them through `unlessRefused`.
 *
 * @example
 * const { answer, refused } = await unlessRefused(authCalls(marketClient).login(credentials), [422])
 */
export const authCalls = (client: Upstream) => ({
  /** `POST api/auth/login`: a bearer token and its expiry. */
  login: (credentials: LoginRequest) => client.send('POST', 'auth/login', credentials, loginAnswer),
  /** `GET api/auth/user` with a token: its user (a plain Laravel user too), or null. */
  user: (token: string) => dataOf(client.withToken(token).get('auth/user', userRecordAnswer)),
  /** `POST api/auth/logout`: revokes a token. */
  logout: (token: string) => client.withToken(token).send('POST', 'auth/logout', {}, acknowledgedAnswer),
  /** `POST api/auth/forgot-password`: mails a reset link built on `linkBase` when the account exists (the same answer either way). */
  forgotPassword: (email: string, linkBase: string) =>
    client.send('POST', 'auth/forgot-password', { email, link_base: linkBase }, acknowledgedAnswer),
  /** `GET api/auth/reset-password/{token}`: the account a reset link is for, or null. */
  resetLink: (token: string) => dataOf(client.get(`auth/reset-password/${segment(token)}`, resetTokenAnswer)),
  /** `POST api/auth/reset-password`: sets a new password with a reset link's token. */
  resetPassword: (token: string, password: string) =>
    dataOf(client.send('POST', 'auth/reset-password', { token, password }, resetPasswordAnswer)),
  /**
   * `POST api/auth/register`: creates an unconfirmed account and mails its confirmation link, or mails the owner of a
   * taken address instead (the same answer either way; the same `submission_key` twice is handled once).
   */
  register: (request: RegisterRequest) => client.send('POST', 'auth/register', request, acknowledgedAnswer),
  /** `GET api/auth/confirm-email/{token}`: the account a confirmation link is for, or null (410 when spent). */
  confirmationLink: (token: string) => dataOf(client.get(`auth/confirm-email/${segment(token)}`, confirmationAnswer)),
  /** `POST api/auth/confirm-email`: confirms the address of a link's account (once). */
  confirmEmail: (token: string) => dataOf(client.send('POST', 'auth/confirm-email', { token }, confirmationAnswer)),
})

export type AuthCalls = ReturnType<typeof authCalls>
