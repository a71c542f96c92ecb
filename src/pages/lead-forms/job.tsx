import { Field, type FieldErrors } from '../../components/form-field'
import { TextAreaField } from '../../components/choice-fields'
import type { View } from '../../components/view'
import { type CvFile, readCv, storeCv } from '../../forms/cv'
import { type FieldsProps, type FormValues, leadForm, fieldValue } from '../../forms/lead-form'
import { errorName, logEvent } from '../../ops/log'
import { isUpstreamError, UpstreamError, unlessRefused } from '../../upstream/errors'
import { fieldErrors } from '../../../contract/fields'
import { CV_MAX_BYTES, type Job, jobApplicationFields } from '../../../contract/form-schemas'
import { textFields } from '../../components/lead-form-fields'

/**
 * The largest body the form reads: a CV of `CV_MAX_BYTES` (5 MiB) and the fields fit with room to spare, so a CV a
 * little too large gets its field's message with everything else kept; a 6 MB file is not read at all (413).
 */
export const JOB_FORM_MAX_BYTES = 5.5 * 1024 * 1024

/** The market's open positions, where each one's "apply" link leads, and whether the form comes back after a POST. */
type JobData = { jobs: Job[]; applyUrl: string | null; posted: boolean }

/** The CV's largest size as the hint writes it: a left-to-right run, isolated so right-to-left text keeps it whole. */
const CV_LIMIT = `\u2066${CV_MAX_BYTES / 1024 / 1024} MB\u2069`

/** A map pin, before each position's place. */
const PIN = 'M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z'

/**
 * Work with us: the market's open positions above the form; a position (or an open application), name, e-mail, phone,
 * an optional cover letter and the CV. The CV is checked from its bytes and kept in R2 only once everything else is
 * valid; the API gets its key, and the object goes again when the API refuses or fails. Sent to the market's jobs
 * recipient.
 */
export const jobForm = leadForm<JobData>({
  page: 'work-with-us',
  kind: 'job',
  multipart: true,
  maxBytes: JOB_FORM_MAX_BYTES,
  load: async (c) => ({
    jobs: await c.var.api.forms.jobs(),
    applyUrl: c.var.available.pageUrl('work-with-us'),
    posted: c.req.method === 'POST',
  }),
  /** `?position=<id>` chooses an open position of the market; anything else is ignored. */
  prefill: (c, { jobs }): FormValues => {
    const position = c.req.query('position') ?? ''
    return jobs.some((job) => String(job.id) === position) ? { position } : {}
  },
  Above: ({ view, data }) => <OpenPositions view={view} {...data} />,
  Fields: (props) => <JobFields {...props} />,
  send: async (c, values, key, body) => {
    const [fields, cv, jobs] = await Promise.all([
      jobApplicationFields.safeParse({ ...values, submission_key: key }),
      readCv(body.cv),
      c.var.api.forms.jobs(),
    ])
    // Every message at once: the fields', the position's (one the page listed) and the file's.
    const errors: FieldErrors = fields.success ? {} : fieldErrors(fields.error)
    const position = fields.success ? fields.data.position : null
    if (position !== null && !jobs.some((job) => job.id === position)) errors.position = ['position']
    if ('refused' in cv) errors.cv = [cv.refused]
    if (!fields.success || 'refused' in cv || Object.keys(errors).length > 0) return { errors }

    const file = await storeCv(c.env.FILES, cv.cv).catch((error: unknown) => {
      // The bucket is where the application goes first: its outage is the form's "not sent, try again" (503).
      logEvent('error', 'cv_not_stored', { error: errorName(error) })
      throw new UpstreamError('unavailable', 'files')
    })
    let keep = false
    try {
      const { answer, refused } = await unlessRefused(
        c.var.api.forms.job({ ...fields.data, cv: cvOf(file, cv.cv) }),
        [422],
      )
      if (refused) return { errors: refused.rejection.errors ?? { form: ['invalid'] } }
      // A repeated application (a double click) answers the first one's reference: its CV is the first one's.
      keep = answer !== null && answer.created !== false
      return answer === null ? null : { reference: answer.reference }
    } catch (error) {
      keep = mayBeStored(error)
      if (keep) logEvent('warn', 'cv_kept_outcome_unknown', { form: 'job' })
      throw error
    } finally {
      // A CV that cannot be deleted now is deleted by the retention with the others of its day.
      if (!keep)
        await c.env.FILES.delete(file).catch((error: unknown) =>
          logEvent('error', 'cv_not_deleted', { error: errorName(error) }),
        )
    }
  },
})

/** What the API is told about the stored CV. */
const cvOf = (key: string, cv: CvFile) => ({ key, type: cv.type, size: cv.bytes.byteLength, name: cv.name })

/**
 * Whether a failed call may still have stored the submission: no answer came (a timeout, a lost connection) or an
 * answer came that could not be read. Its CV then stays (the retention deletes it at the end of the period); an API that
 * answered a refusal or an error status stored nothing, and the CV goes.
 */
function mayBeStored(error: unknown): boolean {
  if (!isUpstreamError(error)) return false
  return (
    error.failure === 'timeout' ||
    error.failure === 'invalid' ||
    (error.failure === 'unavailable' && error.status === undefined)
  )
}

/** The market's open positions, each with a link that chooses it in the form; or the open application's promise. */
function OpenPositions({ view, jobs, applyUrl }: { view: View } & JobData) {
  const { t } = view
  const titleId = 'job-openings-title'
  return (
    <section className="job-openings" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('jobs.positions_title')}</h2>
      {jobs.length > 0 ? (
        <ul className="job-list">
          {jobs.map((job) => (
            <li key={job.id} className="job-card">
              <h3 id={`job-${job.id}`}>{job.title}</h3>
              <p className="job-place">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d={PIN} />
                </svg>
                <span>{job.place}</span>
              </p>
              {job.summary && <p className="job-summary">{job.summary}</p>}
              {applyUrl && (
                <a
                  className="job-apply"
                  href={`${applyUrl}?position=${job.id}#lead-form-title`}
                  aria-describedby={`job-${job.id}`}
                >
                  {t('jobs.apply')}
                  <span aria-hidden="true" className="job-apply-arrow">
                    →
                  </span>
                </a>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="job-none">{t('jobs.no_positions')}</p>
      )}
    </section>
  )
}

function JobFields({ view, data, values, errors }: FieldsProps<JobData>) {
  const { t } = view
  const text = textFields(view, values, errors)
  const cvAgain = data.posted ? 'field-cv-again' : null
  return (
    <>
      {/* Without open positions the application is an open one: nothing to choose (unless one closed meanwhile). */}
      {(data.jobs.length > 0 || errors?.position) && (
        <Field
          view={view}
          name="position"
          label={t('forms.field.position')}
          hint={t('jobs.position_hint')}
          errors={errors}
        >
          {({ id, invalid, describedBy }) => (
            <select
              id={id}
              name="position"
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              defaultValue={fieldValue(values, 'position')}
            >
              <option value="">{t('forms.job.open_application')}</option>
              {data.jobs.map((job) => (
                <option key={job.id} value={String(job.id)}>
                  {`${job.title} · ${job.place}`}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {text('name', 'name', 120)}
      <div className="job-contact">
        {text('email', 'email', 254, { type: 'email', dir: 'ltr' })}
        {text('phone', 'tel', 30, { type: 'tel', dir: 'ltr' })}
      </div>
      <TextAreaField
        view={view}
        name="cover_letter"
        label={t('forms.field.cover_letter')}
        hint={t('jobs.cover_letter_hint')}
        optional
        rows={8}
        maxLength={5000}
        value={fieldValue(values, 'cover_letter')}
        errors={errors}
      />
      <Field
        view={view}
        name="cv"
        label={t('forms.field.cv')}
        hint={t('jobs.cv_hint', { size: CV_LIMIT })}
        errors={errors}
      >
        {({ id, invalid, describedBy }) => (
          <div className="cv-input">
            {cvAgain && (
              <p className="cv-again" id={cvAgain}>
                {t('jobs.cv_again')}
              </p>
            )}
            <input
              id={id}
              name="cv"
              type="file"
              accept=".pdf,.docx,.odt"
              required
              aria-invalid={invalid || undefined}
              aria-describedby={[describedBy, cvAgain].filter(Boolean).join(' ') || undefined}
            />
          </div>
        )}
      </Field>
    </>
  )
}
