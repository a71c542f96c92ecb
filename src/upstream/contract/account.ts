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
 * A class: its methods are made once per isolate, not once per logged-in page as an object of arrow functions would be
 * (each named by the bundle with `Object.defineProperty`: docs/decisions/074).
 *
 * @example
 * const orders = await accountCalls(customerClient).orders(1, 10)
 */
export class AccountCalls {
  constructor(private readonly client: Upstream) {}

  /**
   * `GET api/account/profile`, read tolerantly; where the backend has no profile call (404: the brand's own backend
   * serves only the original's calls), the user of `GET api/auth/user`.
   */
  async profile() {
    return (
      (await dataOf(this.client.get('account/profile', userRecordAnswer))) ??
      dataOf(this.client.get('auth/user', userRecordAnswer))
    )
  }

  /** `PUT api/account/profile`: the customer's names and phone; the record as it now is. */
  updateProfile(profile: ProfileInput) {
    return dataOf(this.client.send('PUT', 'account/profile', profile, userRecordAnswer))
  }

  /** `POST api/account/password`: refused (422 `current_password`) when the current password is wrong. */
  changePassword(change: PasswordChangeRequest) {
    return this.client.send('POST', 'account/password', change, acknowledgedAnswer)
  }

  /** `POST api/account/erase`: the person's data erased, the orders kept; refused (422) on a wrong password. */
  erase(password: string) {
    return this.client.send('POST', 'account/erase', { password }, acknowledgedAnswer)
  }

  /** `POST api/auth/resend-confirmation`: mails a new confirmation link while the address is unconfirmed. */
  resendConfirmation(linkTemplate: string) {
    return this.client.send('POST', 'auth/resend-confirmation', { link_template: linkTemplate }, acknowledgedAnswer)
  }

  /**
   * `GET api/account/overview?orders=n`: the user, their `n` latest orders (as a table shows them), their bikes and
   * their cart's item count in one answer (not their addresses: docs/decisions/084);
   * the embedded API's own call (a backend without it answers 404: null).
   */
  overview(orders: number) {
    return dataOf(this.client.get(`account/overview${query({ orders })}`, overviewAnswer))
  }

  /**
   * `GET api/account/orders?page=&per_page=&cursor=`: newest first. With a `cursor` (empty: from the newest) a backend
   * that pages by keyset answers `meta.next_cursor` and the page after it is asked by that cursor; one that pages by
   * number ignores it and answers `page` and `total` (docs/decisions/068).
   */
  orders(page: number, perPage: number, cursor?: string) {
    return pagedOf(this.client.get(`account/orders${query({ page, per_page: perPage, cursor })}`, ordersAnswer))
  }

  /** `GET api/account/orders/{code}`. */
  order(code: string) {
    return dataOf(this.client.get(`account/orders/${segment(code)}`, orderAnswer))
  }

  /** `GET api/account/bikes`, or null where the backend does not serve it (404). */
  bikes() {
    return servedListOf(this.client.get('account/bikes', bikesAnswer))
  }

  /** `GET api/account/bike-models`: the models a bike can be registered as. */
  bikeModels() {
    return listOf(this.client.get('account/bike-models', bikeModelsAnswer))
  }

  /** `POST api/account/bikes`. */
  registerBike(bike: BikeRegistration) {
    return dataOf(this.client.send('POST', 'account/bikes', bike, bikeAnswer))
  }

  /** `GET api/account/addresses`, or null where the backend does not serve it (404). */
  addresses() {
    return servedListOf(this.client.get('account/addresses', addressesAnswer))
  }

  /** `GET api/account/addresses/{id}`. */
  address(id: string) {
    return dataOf(this.client.get(`account/addresses/${segment(id)}`, addressAnswer))
  }

  /** `POST api/account/addresses`. */
  addAddress(address: AddressInput) {
    return dataOf(this.client.send('POST', 'account/addresses', address, addressAnswer))
  }

  /** `PUT api/account/addresses/{id}`. */
  updateAddress(id: string, address: AddressInput) {
    return dataOf(this.client.send('PUT', `account/addresses/${segment(id)}`, address, addressAnswer))
  }

  /** `DELETE api/account/addresses/{id}`: whether it was there. */
  async deleteAddress(id: string) {
    return (
      (await this.client.send('DELETE', `account/addresses/${segment(id)}`, undefined, acknowledgedAnswer)) !== null
    )
  }

  /** `POST api/account/addresses/{id}/default`. */
  makeDefaultAddress(id: string) {
    return dataOf(this.client.send('POST', `account/addresses/${segment(id)}/default`, undefined, addressAnswer))
  }
}

/** The account's calls over a client that carries the customer's token and market. */
export const accountCalls = (client: Upstream): AccountCalls => new AccountCalls(client)
