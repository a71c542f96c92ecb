import type { Upstream } from '../client'
import { acknowledgedAnswer, type LoginRequest, resetPasswordAnswer, resetTokenAnswer } from '../account-schemas'
import { loginAnswer, userAnswer } from '../schemas'
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
  /** `GET api/auth/user` with a token: its user, or null. */
  user: (token: string) => dataOf(client.withToken(token).get('auth/user', userAnswer)),
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
})

export type AuthCalls = ReturnType<typeof authCalls>
