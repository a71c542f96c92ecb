import { correctedQuery, vocabularyOf, wordsOf } from '../src/search/typo-tolerance'

/** One entry of the market's suggestion index (src/pages/search-suggestions.ts). */
type Entry = { kind: string; title: string; url: string; image: string | null; detail: string | null }

/** Suggestions shown at most. */
const SHOWN = 8

/**
 * The header's search field as a combobox (the ARIA pattern "list autocomplete"): loaded on the field's first focus,
 * it fetches the market's suggestion index once and, as the visitor types, lists the products (picture and price),
 * articles, dealers and pages whose words start with theirs, a word mistyped read as the nearest the market has
 * (src/search/typo-tolerance.ts). Arrow keys move through the list, Enter opens the one chosen, Escape closes it;
 * the form still searches when none is chosen.
 *
 * @example
 * suggest(document.querySelector('input[data-suggest]')) // on the field's first focus (client/entry.tsx)
 */
export function suggest(field: HTMLInputElement): void {
  const list = document.getElementById(field.getAttribute('aria-controls') ?? '')
  const source = field.dataset.suggest
  if (!list || !source) return
  const kinds = JSON.parse(list.dataset.kinds ?? '{}') as Record<string, string>
  let entries: Entry[] | null = null
  let shown: Entry[] = []
  let active = -1
  const loading = fetch(source, { credentials: 'omit' })
    .then((answer) => (answer.ok ? (answer.json() as Promise<{ entries: Entry[] }>) : { entries: [] }))
    .then((index) => {
      entries = index.entries
    })
    .catch(() => {
      entries = []
    })

  const close = () => {
    list.hidden = true
    field.setAttribute('aria-expanded', 'false')
    field.removeAttribute('aria-activedescendant')
    active = -1
  }
  const highlight = (index: number) => {
    active = index
    list.querySelectorAll('[role="option"]').forEach((option, n) => {
      option.setAttribute('aria-selected', String(n === index))
    })
    if (index >= 0) field.setAttribute('aria-activedescendant', `${list.id}-${index}`)
    else field.removeAttribute('aria-activedescendant')
  }
  const render = () => {
    list.replaceChildren(
      ...shown.map((entry, index) => {
        const option = document.createElement('div')
        option.id = `${list.id}-${index}`
        option.setAttribute('role', 'option')
        option.setAttribute('aria-selected', 'false')
        option.className = `suggestion suggestion-${entry.kind}`
        if (entry.image) {
          const image = document.createElement('img')
          image.src = entry.image
          image.alt = ''
          image.width = 48
          image.height = 32
          option.appendChild(image)
        }
        const title = document.createElement('span')
        title.className = 'suggestion-title'
        title.textContent = entry.title
        const meta = document.createElement('span')
        meta.className = 'suggestion-meta'
        meta.textContent = kinds[entry.kind] ?? ''
        if (entry.detail) {
          const detail = document.createElement('bdi')
          detail.textContent = entry.detail
          meta.append(' · ')
          meta.appendChild(detail)
        }
        option.appendChild(title)
        option.appendChild(meta)
        option.addEventListener('mousedown', (event) => {
          event.preventDefault()
          window.location.assign(entry.url)
        })
        return option
      }),
    )
    list.hidden = shown.length === 0
    field.setAttribute('aria-expanded', String(shown.length > 0))
    highlight(-1)
  }
  const update = async () => {
    await loading
    const typed = field.value.trim()
    if (typed.length < 2 || !entries) {
      shown = []
      return render()
    }
    const all = entries
    const { text } = correctedQuery(typed, vocabularyOf(all.map((entry) => entry.title)))
    const wanted = wordsOf(text)
    const matches = (entry: Entry) => {
      const words = wordsOf(`${entry.title} ${entry.detail ?? ''}`)
      return wanted.every((word) => words.some((candidate) => candidate.startsWith(word)))
    }
    shown = all.filter(matches).slice(0, SHOWN)
    render()
  }

  field.addEventListener('input', () => void update())
  field.addEventListener('keydown', (event) => {
    if (list.hidden) {
      if (event.key === 'ArrowDown' && field.value.trim().length >= 2) void update()
      return
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      highlight(
        (active + step + shown.length + 1) % (shown.length + 1) === shown.length
          ? -1
          : (active + step + shown.length + 1) % (shown.length + 1),
      )
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault()
      const entry = shown[active]
      if (entry) window.location.assign(entry.url)
    } else if (event.key === 'Escape') {
      // The list closes; the field keeps its words (a search field's Escape would clear them) and the panel stays.
      event.preventDefault()
      event.stopPropagation()
      close()
    }
  })
  field.addEventListener('blur', close)
  if (field.value.trim().length >= 2) void update()
}
