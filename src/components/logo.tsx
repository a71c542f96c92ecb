/** The brand's mark and wordmark, coloured by the text colour around it. */
export function Logo({ title }: { title: string }) {
  return (
    <svg className="logo" viewBox="0 0 180 40" role="img" aria-label={title} focusable="false">
      <circle cx="20" cy="20" r="15" fill="none" stroke="currentColor" strokeWidth="3" />
      <path d="M8 24 A12 12 0 0 1 32 24 Z" fill="currentColor" />
      <path d="M20 5v5M7 13l4 3M33 13l-4 3" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
      <text
        x="44"
        y="28"
        fill="currentColor"
        fontFamily="system-ui, sans-serif"
        fontSize="21"
        fontWeight="700"
        letterSpacing="3"
      >
        AURORA
      </text>
    </svg>
  )
}
