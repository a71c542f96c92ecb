import type { ReactNode } from 'react'
import type { View } from './view'

/**
 * The brand's profiles: plain links (no third party's script, image or cookie reaches the page), each named for
 * assistive technology ("Aurora Cycles on Instagram") with its network's mark drawn inline.
 */
export const SOCIAL_PROFILES: ReadonlyArray<{ network: string; url: string; icon: ReactNode }> = [
  {
    network: 'Instagram',
    url: 'https://www.instagram.com/auroracycles',
    icon: (
      <>
        <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="12" cy="12" r="4.2" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="17.3" cy="6.7" r="1.3" fill="currentColor" />
      </>
    ),
  },
  {
    network: 'YouTube',
    url: 'https://www.youtube.com/@auroracycles',
    icon: (
      <path
        d="M6 5h12a4 4 0 0 1 4 4v6a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V9a4 4 0 0 1 4-4zm4 4v6l5.2-3z"
        fill="currentColor"
        fillRule="evenodd"
      />
    ),
  },
  {
    network: 'Strava',
    url: 'https://www.strava.com/clubs/aurora-cycles',
    icon: (
      <path
        d="M10.2 2 4.5 13.2h3.4l2.3-4.5 2.3 4.5h3.4zm5.3 11.2-1.7 3.3-1.7-3.3H9.6l4.2 8.3 4.2-8.3z"
        fill="currentColor"
      />
    ),
  },
  {
    network: 'Facebook',
    url: 'https://www.facebook.com/auroracycles',
    icon: (
      <path
        d="M13.5 21v-7.6h2.6l.4-3h-3V8.5c0-.9.3-1.5 1.5-1.5h1.6V4.3c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H7.8v3h2.6V21z"
        fill="currentColor"
      />
    ),
  },
]

/** "Follow us" and the brand's profiles, each an icon link with its accessible name. */
export function SocialLinks({ view }: { view: View }) {
  const { t } = view
  return (
    <section className="footer-social" aria-labelledby="footer-social-title">
      <h2 id="footer-social-title">{t('footer.follow')}</h2>
      <ul>
        {SOCIAL_PROFILES.map(({ network, url, icon }) => (
          <li key={network}>
            <a href={url} rel="me noopener" className="social-link">
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                {icon}
              </svg>
              <span className="visually-hidden">{t('footer.social_on', { network })}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
