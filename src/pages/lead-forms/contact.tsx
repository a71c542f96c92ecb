import { ChoiceGroup, TextAreaField } from '../../components/choice-fields'
import { Field } from '../../components/form-field'
import { checkAndSend, type FormValues, leadForm, fieldValue, TEXT_FORM_BYTES } from '../../forms/lead-form'
import { CONTACT_TOPICS, contactMessage } from '../../../contract/form-schemas'

/** Contact: a topic, name, e-mail, an optional order code and the message; sent to the market's contact recipient. */
export const contactForm = leadForm({
  page: 'contact-us',
  kind: 'contact',
  maxBytes: TEXT_FORM_BYTES,
  load: async () => null,
  prefill: (c): FormValues => {
    const topic = c.req.query('topic') ?? ''
    return (CONTACT_TOPICS as readonly string[]).includes(topic) ? { topic } : {}
  },
  Fields: ({ view, values, errors }) => {
    const { t } = view
    return (
      <>
        <ChoiceGroup
          view={view}
          type="radio"
          name="topic"
          legend={t('forms.field.topic')}
          options={CONTACT_TOPICS.map((topic) => ({ value: topic, label: t(`forms.topic.${topic}`) }))}
          checked={fieldValue(values, 'topic')}
          errors={errors}
        />
        <Field
          view={view}
          name="name"
          label={t('forms.field.name')}
          autoComplete="name"
          maxLength={120}
          defaultValue={fieldValue(values, 'name')}
          errors={errors}
        />
        <Field
          view={view}
          name="email"
          label={t('forms.field.email')}
          type="email"
          autoComplete="email"
          maxLength={254}
          dir="ltr"
          defaultValue={fieldValue(values, 'email')}
          errors={errors}
        />
        <Field
          view={view}
          name="order_code"
          label={t('forms.field.order_code')}
          hint={t('forms.contact.order_code_hint')}
          optional
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          dir="ltr"
          defaultValue={fieldValue(values, 'order_code')}
          errors={errors}
        />
        <TextAreaField
          view={view}
          name="message"
          label={t('forms.field.message')}
          maxLength={5000}
          value={fieldValue(values, 'message')}
          errors={errors}
        />
      </>
    )
  },
  send: (c, values, key) => checkAndSend(contactMessage, values, key, (message) => c.var.api.forms.contact(message)),
})
