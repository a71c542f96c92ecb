import { useEffect, useState } from 'react'

export type ListingUpdatesProps = {
  /** The id of the listing's filter form (a plain GET form; the sort select belongs to it through `form=`). */
  form: string
  /** The id of the results region: what is replaced. */
  results: string
  /** The id of the results' heading, which says how many there are. */
  count: string
}

/**
 * A listing's filters without a full reload. Without JavaScript the filter form is a plain GET form. Hydrated, each
 * change of a filter or the order (and the form's own submit, and the applied-filter chips) fetches the listing's URL
 * for the new query (the very page a plain submit would load, cached alike), puts its results region in place of
 * this one (its page links too), records the URL in the history (back undoes a filter) and says the new number of
 * results in a live region; the filters' counts and disabled values follow. If anything fails it falls back to loading the URL.
 */
export default function ListingUpdates({ form, results, count }: ListingUpdatesProps) {
  const [message, setMessage] = useState('')

  useEffect(() => {
    const found = document.getElementById(form)
    if (!(found instanceof HTMLFormElement)) return
    const filters: HTMLFormElement = found
    let pending: AbortController | null = null

    /** The form's URL as a plain GET submit would make it, without empty fields and the default order. */
    const urlOf = (): string => {
      const params = new URLSearchParams()
      for (const [name, value] of new FormData(filters)) {
        if (typeof value === 'string' && value.trim() !== '' && !(name === 'sort' && value === 'featured'))
          params.append(name, value.trim())
      }
      const query = params.toString()
      return `${window.location.pathname}${query ? `?${query}` : ''}`
    }

    async function show(url: string, record: boolean, focusResults: boolean): Promise<void> {
      pending?.abort()
      const controller = new AbortController()
      pending = controller
      const region = document.getElementById(results)
      region?.setAttribute('aria-busy', 'true')
      try {
        const response = await fetch(url, {
          signal: controller.signal,
          credentials: 'same-origin',
          headers: { Accept: 'text/html' },
        })
        if (!response.ok) throw new Error(`listing answered ${response.status}`)
        const next = new DOMParser().parseFromString(await response.text(), 'text/html')
        const nextRegion = next.getElementById(results)
        if (!region || !nextRegion || controller.signal.aborted) throw new Error('no results region')
        region.replaceChildren(...Array.from(nextRegion.childNodes, (node) => document.importNode(node, true)))
        syncControls(filters, next.getElementById(form) as HTMLFormElement | null)
        const summary = filters.closest('details')?.querySelector('summary')
        const nextSummary = next.getElementById(form)?.closest('details')?.querySelector('summary')
        if (summary && nextSummary) summary.innerHTML = nextSummary.innerHTML
        if (record && url !== `${window.location.pathname}${window.location.search}`)
          window.history.pushState(null, '', url)
        const heading = document.getElementById(count)
        setMessage(heading?.textContent ?? '')
        if (focusResults && heading) {
          heading.tabIndex = -1
          heading.focus()
        }
      } catch {
        if (controller.signal.aborted) return
        window.location.assign(url)
      } finally {
        if (pending === controller) region?.removeAttribute('aria-busy')
      }
    }

    const onChange = (event: Event) => {
      const control = event.target as HTMLInputElement
      if (control.form !== filters) return
      void show(urlOf(), true, false)
    }
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault()
      // "Show results" goes to them; on a phone, where the filters are a panel over the results, it closes the panel.
      const panel = filters.closest('details')
      const summary = panel?.querySelector('summary')
      if (panel?.open && summary && window.getComputedStyle(summary).display !== 'none') panel.open = false
      void show(urlOf(), true, true)
    }
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element).closest?.(
        `#${results} .filter-chips a, #${results} .pagination a`,
      ) as HTMLAnchorElement | null
      if (
        !link ||
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return
      event.preventDefault()
      void show(`${link.pathname}${link.search}`, true, true)
    }
    const onHistory = () => void show(`${window.location.pathname}${window.location.search}`, false, false)

    document.addEventListener('change', onChange)
    filters.addEventListener('submit', onSubmit)
    document.addEventListener('click', onClick)
    window.addEventListener('popstate', onHistory)
    // Each change applies at once: the separate "sort" button is for pages without JavaScript.
    for (const button of document.querySelectorAll<HTMLButtonElement>(`button[form="${form}"]`)) button.hidden = true
    filters.dataset.hydrated = ''
    return () => {
      document.removeEventListener('change', onChange)
      filters.removeEventListener('submit', onSubmit)
      document.removeEventListener('click', onClick)
      window.removeEventListener('popstate', onHistory)
    }
  }, [form, results, count])

  return (
    <p className="visually-hidden" role="status">
      {message}
    </p>
  )
}

/**
 * Sets the form's controls as the server rendered them for the new URL (after a chip, back, or a corrected value):
 * their values, and each choice's count of products and whether it is offered.
 */
function syncControls(filters: HTMLFormElement, next: HTMLFormElement | null): void {
  if (!next) return
  for (const control of Array.from(filters.elements)) {
    if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      const twin = next.querySelector<HTMLInputElement>(`input[name="${control.name}"][value="${control.value}"]`)
      control.checked = twin?.defaultChecked ?? false
      control.disabled = twin?.disabled ?? false
      const count = control.closest('label')?.querySelector('.facet-count')
      const nextCount = twin?.closest('label')?.querySelector('.facet-count')
      if (count && nextCount) count.textContent = nextCount.textContent
    } else if (
      (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) &&
      control !== document.activeElement
    ) {
      const twin = Array.from(next.elements).find((other) => (other as HTMLInputElement).name === control.name) as
        | HTMLInputElement
        | HTMLSelectElement
        | undefined
      if (twin)
        control.value =
          twin instanceof HTMLSelectElement
            ? ((twin.querySelector('option[selected]') as HTMLOptionElement | null)?.value ?? twin.value)
            : twin.defaultValue
    }
  }
}
