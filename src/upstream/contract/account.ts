import type { Upstream } from '../client'
import {
  acknowledgedAnswer,
  type AddressInput,
  addressAnswer,
  addressesAnswer,
  type BikeRegistration,
  bikeAnswer,
  bikeModelsAnswer,
  bikesAnswer,
  orderAnswer,
  ordersAnswer,
  overviewAnswer,
  type PasswordChangeRequest,
  type ProfileInput,
} from '../../../contract/account-schemas'
import { userRecordAnswer } from '../readers/user-record'
import { dataOf, listOf, pagedOf, query, segment, servedListOf } from './answers'

/**
 * The logged-in customer's account, over a client that carries their token and their market. Every call answers
 * null for what is not theirs (404), and refusals (invalid input, a taken frame number) throw `UpstreamError`.
 *
 * @example
 * const orders = await accountCalls(customerClient).orders(1, 10)
 */
export const accountCalls = (client: Upstream) => ({
  /**
   * `GET api/account/profile`, read tolerantly; where the backend has no profile call (404: the brand's own backend
   * serves only the original's calls), the user of `GET api/auth/user`.
   */
  profile: async () =>
    (await dataOf(client.get('account/profile', userRecordAnswer))) ??
    dataOf(client.get('auth/user', userRecordAnswer)),
  /** `PUT api/account/profile`: the customer's names and phone; the record as it now is. */
  updateProfile: (profile: ProfileInput) => dataOf(client.send('PUT', 'account/profile', profile, userRecordAnswer)),
  /** `POST api/account/password`: refused (422 `current_password`) when the current password is wrong. */
  changePassword: (change: PasswordChangeRequest) =>
    client.send('POST', 'account/password', change, acknowledgedAnswer),
  /** `POST api/account/erase`: the person's data erased, the orders kept; refused (422) on a wrong password. */
  erase: (password: string) => client.send('POST', 'account/erase', { password }, acknowledgedAnswer),
  /** `POST api/auth/resend-confirmation`: mails a new confirmation link while the address is unconfirmed. */
  resendConfirmation: (linkTemplate: string) =>
    client.send('POST', 'auth/resend-confirmation', { link_template: linkTemplate }, acknowledgedAnswer),
  /**
   * `GET api/account/overview?orders=n`: the user, their `n` latest orders, their bikes and addresses in one answer;
   * the embedded API's own call (a backend without it answers 404: null).
   */
  overview: (orders: number) => dataOf(client.get(`account/overview${query({ orders })}`, overviewAnswer)),
  /**
   * `GET api/account/orders?page=&per_page=&cursor=`: newest first. With a `cursor` (empty: from the newest) a backend
   * that pages by keyset answers `meta.next_cursor` and the page after it is asked by that cursor; one that pages by
   * number ignores it and answers `page` and `total` (docs/decisions/068).
   */
  orders: (page: number, perPage: number, cursor?: string) =>
    pagedOf(client.get(`account/orders${query({ page, per_page: perPage, cursor })}`, ordersAnswer)),
  /** `GET api/account/orders/{code}`. */
  order: (code: string) => dataOf(client.get(`account/orders/${segment(code)}`, orderAnswer)),
  /** `GET api/account/bikes`, or null where the backend does not serve it (404). */
  bikes: () => servedListOf(client.get('account/bikes', bikesAnswer)),
  /** `GET api/account/bike-models`: the models a bike can be registered as. */
  bikeModels: () => listOf(client.get('account/bike-models', bikeModelsAnswer)),
  /** `POST api/account/bikes`. */
  registerBike: (bike: BikeRegistration) => dataOf(client.send('POST', 'account/bikes', bike, bikeAnswer)),
  /** `GET api/account/addresses`, or null where the backend does not serve it (404). */
  addresses: () => servedListOf(client.get('account/addresses', addressesAnswer)),
  /** `GET api/account/addresses/{id}`. */
  address: (id: string) => dataOf(client.get(`account/addresses/${segment(id)}`, addressAnswer)),
  /** `POST api/account/addresses`. */
  addAddress: (address: AddressInput) => dataOf(client.send('POST', 'account/addresses', address, addressAnswer)),
  /** `PUT api/account/addresses/{id}`. */
  updateAddress: (id: string, address: AddressInput) =>
    dataOf(client.send('PUT', `account/addresses/${segment(id)}`, address, addressAnswer)),
  /** `DELETE api/account/addresses/{id}`: whether it was there. */
  deleteAddress: async (id: string) =>
    (await client.send('DELETE', `account/addresses/${segment(id)}`, undefined, acknowledgedAnswer)) !== null,
  /** `POST api/account/addresses/{id}/default`. */
  makeDefaultAddress: (id: string) =>
    dataOf(client.send('POST', `account/addresses/${segment(id)}/default`, undefined, addressAnswer)),
})

export type AccountCalls = ReturnType<typeof accountCalls>
