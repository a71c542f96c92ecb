import type { Staff } from '../../contract/staff-schemas'
import { ROLE_LABELS, sectionPath, sectionsOf } from './sections'

/** The console's home: who is signed in, and what their role may do here. */
export function ConsoleHome({ staff }: { staff: Staff }) {
  return (
    <>
      <p>
        Signed in as {staff.name} ({staff.email}), {ROLE_LABELS[staff.role].toLowerCase()}. Your role may:
      </p>
      <ul className="sections">
        {sectionsOf(staff.role).map((section) => (
          <li key={section.slug}>
            <a href={sectionPath(section.slug)}>{section.label}</a>
            <span>{section.summary}</span>
          </li>
        ))}
      </ul>
      <p className="hint">
        Every change you make here is recorded with your name. The session ends after 30 minutes without use, and after
        8 hours.
      </p>
    </>
  )
}
