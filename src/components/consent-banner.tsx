import { textsOf } from '../i18n/translator'
import { Kept } from '../render/kept'
import { CONSENT_CATEGORIES, CONSENT_PATH } from '../tracking/consent'
import type { PageTracking } from '../tracking/page-tracking'
import type { View } from './view'

/** The banner's id: the footer's "Cookie settings" link opens it (`#cookie-settings`, CSS `:target`). */
export const CONSENT_SETTINGS_ID = 'cookie-settings'

/**
 * The consent banner, at the top of every page that tracks (PRODUCT.md §5): accept all, reject all (as prominent as
 * accepting), or customise by category. A plain form posted to `/_consent`, so it works without JavaScript and the
 * next page is answered with the choice (its CSP, its scripts). Open until the visitor chooses; afterwards hidden,
 * and reopened from the footer with the current choice ticked. Under Global Privacy Control it asks nothing and says
 * why.
 */
export function ConsentBanner({ view, tracking }: { view: View; tracking: PageTracking }) {
  const { t } = view
  const { consent, gpc } = tracking
  const asking = consent === null
  return (
    <section
      id={CONSENT_SETTINGS_ID}
      className={asking ? 'consent' : 'consent consent-closed'}
      aria-labelledby="consent-title"
    >
      <form method="post" action={CONSENT_PATH} className="consent-form">
        <input type="hidden" name="return" value={tracking.returnPath} />
        <Kept part="consent-choices" deps={[...textsOf(t), tracking.policyUrl, consent, gpc]}>
          {() => (
            <>
              <div className="consent-intro">
                <h2 id="consent-title">{t('consent.title')}</h2>
                <p>{t('consent.text')}</p>
                {tracking.policyUrl && (
                  <p>
                    <a href={tracking.policyUrl}>{t('consent.policy')}</a>
                  </p>
                )}
              </div>
              {gpc ? (
                <p className="consent-gpc">{t('consent.gpc')}</p>
              ) : (
                <>
                  <details className="consent-details" open={!asking}>
                    <summary>{t('consent.customise')}</summary>
                    <fieldset>
                      <legend>{t('consent.choose')}</legend>
                      <div className="consent-category">
                        <input
                          type="checkbox"
                          id="consent-necessary"
                          checked
                          disabled
                          aria-describedby="consent-necessary-text"
                        />
                        <label htmlFor="consent-necessary">{t('consent.necessary')}</label>
                        <p id="consent-necessary-text">{t('consent.necessary_text')}</p>
                      </div>
                      {CONSENT_CATEGORIES.map((category) => (
                        <div className="consent-category" key={category}>
                          <input
                            type="checkbox"
                            id={`consent-${category}`}
                            name={category}
                            value="on"
                            defaultChecked={consent?.[category] ?? false}
                            aria-describedby={`consent-${category}-text`}
                          />
                          <label htmlFor={`consent-${category}`}>{t(`consent.${category}`)}</label>
                          <p id={`consent-${category}-text`}>{t(`consent.${category}_text`)}</p>
                        </div>
                      ))}
                    </fieldset>
                    <button type="submit" name="choice" value="save" className="button secondary">
                      {t('consent.save')}
                    </button>
                  </details>
                  <div className="consent-actions">
                    <button type="submit" name="choice" value="reject" className="button">
                      {t('consent.reject_all')}
                    </button>
                    <button type="submit" name="choice" value="accept" className="button">
                      {t('consent.accept_all')}
                    </button>
                  </div>
                </>
              )}
            </>
          )}
        </Kept>
        {!asking && (
          <p className="consent-close">
            <a href="#main">{t('common.close')}</a>
          </p>
        )}
      </form>
    </section>
  )
}
