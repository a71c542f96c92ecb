import type { LeadForm } from '../../forms/lead-form'
import { contactForm } from './contact'
import { jobForm } from './job'
import { dealerForm, distributorForm } from './partner'
import { testRideForm } from './test-ride'

/** The site's lead forms by the pageLinks key of the page they sit on. */
// biome-ignore lint: each form has its own data
export const LEAD_FORMS: Readonly<Record<string, LeadForm<any>>> = {
  'contact-us': contactForm,
  'test-drive': testRideForm,
  'become-a-dealer': dealerForm,
  'become-a-distributor': distributorForm,
  'work-with-us': jobForm,
}
