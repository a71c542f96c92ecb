export type ListingUpdatesProps = {
  /** The id of the listing's filter form (a plain GET form; the sort select belongs to it through `form=`). */
  form: string
  /** The id of the results region: what is replaced. */
  results: string
  /** The id of the results' heading, which says how many there are. */
  count: string
}

/**
 * A listing's filters without a full reload: a plain island (no framework: the listing loads no React, and its script
 * does no long task on a phone), started by the entry on the marker the server rendered around the results' status
 * line (`<p role="status">`, src/pages/products.tsx). Without JavaScript the filter form is a plain GET form. Started,
 * each change of a filter or the order (and the form's own submit, and the applied-filter chips) fetches the
 * listing's URL for the new query (the very page a plain submit would load, cached alike), puts its results region
 * (its page links too) in place of this one, with the filters' counts and disabled values following, records the URL in the history (back undoes a filter) and says the new number of results in
 * the status line. If anything fails it falls back to loading the URL.
 */
export function enhance(marker: HTMLElement, { form, results, count }: ListingUpdatesProps): void {
  const found = document.getElementById(form)
  const status = marker.querySelector('[role="status"]')
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
      if (status) status.textContent = heading?.textContent ?? ''
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

  document.addEventListener('change', (event: Event) => {
    const control = event.target as HTMLInputElement
    if (control.form !== filters) return
    void show(urlOf(), true, false)
  })
  filters.addEventListener('submit', (event: SubmitEvent) => {
    event.preventDefault()
    // "Show results" goes to them; on a phone, where the filters are a panel over the results, it closes the panel.
    const panel = filters.closest('details')
    const summary = panel?.querySelector('summary')
    if (panel?.open && summary && window.getComputedStyle(summary).display !== 'none') panel.open = false
    void show(urlOf(), true, true)
  })
  document.addEventListener('click', (event: MouseEvent) => {
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
  })
  window.addEventListener(
    'popstate',
    () => void show(`${window.location.pathname}${window.location.search}`, false, false),
  )
  // Each change applies at once: the separate "sort" button is for pages without JavaScript.
  for (const button of document.querySelectorAll<HTMLButtonElement>(`button[form="${form}"]`)) button.hidden = true
  filters.dataset.hydrated = ''
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
      const shown = control.closest('label')?.querySelector('.facet-count')
      const nextShown = twin?.closest('label')?.querySelector('.facet-count')
      if (shown && nextShown) shown.textContent = nextShown.textContent
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
