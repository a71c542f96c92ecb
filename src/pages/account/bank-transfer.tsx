import type { MarketView } from '../../components/view'
import type { Order } from '../../../contract/account-schemas'
import type { BankAccount, Site } from '../../../contract/schemas'
import { Ltr } from './ltr'

/** The account a market's bank transfers are paid into (`bank_transfer` of its site's settings), or null. */
export function bankAccountOf(sites: Site[], market: string): BankAccount | null {
  const slug = market.split('-')[0]
  return sites.find((site) => site.slug === slug)?.settings.bank_transfer ?? null
}

/** Whether an order still waits for a bank transfer (placed, not paid, not closed). */
export const awaitsTransfer = (order: Pick<Order, 'status' | 'payment'>) =>
  order.payment.method === 'bank_transfer' && order.payment.state === 'pending' && order.status === 'pending_payment'

/** An IBAN as people read and type it: groups of four (`IT60 X054 2811 …`). */
export const groupedIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ')

/**
 * How to pay an order by bank transfer: the beneficiary, IBAN, BIC and bank, the amount and the order code as the
 * payment reference. The codes and the amount are isolated, so a right-to-left page never reorders them. `headingId`
 * names the section (the order page and the checkout's result each have one).
 */
export function BankTransferDetails({
  view,
  account,
  amount,
  code,
  headingId,
  level = 2,
}: {
  view: MarketView
  account: BankAccount | null
  amount: string
  code: string
  headingId: string
  level?: 2 | 3
}) {
  const { t } = view
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <section className="bank-transfer" aria-labelledby={headingId}>
      <Heading id={headingId}>{t('bank.title')}</Heading>
      {account ? (
        <>
          <p>{t('bank.intro')}</p>
          <dl className="bank-details">
            <div>
              <dt>{t('bank.amount')}</dt>
              <dd className="bank-amount">
                <bdi>{amount}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('bank.reference')}</dt>
              <dd className="bank-code">
                <Ltr>{code}</Ltr>
              </dd>
            </div>
            <div>
              <dt>{t('bank.beneficiary')}</dt>
              <dd>
                <bdi>{account.beneficiary}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('bank.iban')}</dt>
              <dd className="bank-code">
                <Ltr>{groupedIban(account.iban)}</Ltr>
              </dd>
            </div>
            <div>
              <dt>{t('bank.bic')}</dt>
              <dd className="bank-code">
                <Ltr>{account.bic}</Ltr>
              </dd>
            </div>
            {account.bank && (
              <div>
                <dt>{t('bank.bank')}</dt>
                <dd>
                  <bdi>{account.bank}</bdi>
                </dd>
              </div>
            )}
          </dl>
          <p className="bank-note">{t('bank.note')}</p>
        </>
      ) : (
        <p>{t('bank.unavailable')}</p>
      )}
    </section>
  )
}
