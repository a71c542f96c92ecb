// The commands of a runbook: every simple command of its ```sh blocks (indented ones in lists too), as a shell would
// split them, with whether the runbook marks it `# needs an account` (on its line, or on a comment line above it in the
// same paragraph). Heredocs' bodies are data, not commands.

const ACCOUNT_MARK = /#\s*needs an account/i
const SH_BLOCK = /^( *)```sh\n([\s\S]*?)^\1```$/gm

/**
 * @typedef {object} RunbookCommand
 * @property {string} line the command's line as written (continuations joined)
 * @property {string[]} words its words, quotes removed, leading `NAME=value` assignments left out
 * @property {boolean} markedAccount whether the runbook says it needs an account
 */

/** The text of every ```sh block, its indentation removed. */
export function shBlocks(markdown) {
  return [...markdown.matchAll(SH_BLOCK)].map(([, indent, body]) =>
    body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n'),
  )
}

/** Splits a line at the first `#` outside quotes that starts a word: [the command, the comment]. */
function withoutComment(line) {
  let quote = null
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (quote) {
      if (char === quote) quote = null
    } else if (char === "'" || char === '"') quote = char
    else if (char === '#' && (i === 0 || /\s/.test(line[i - 1]))) return [line.slice(0, i).trim(), line.slice(i)]
  }
  return [line.trim(), '']
}

/** A command line's simple commands (split at `&&`, `||`, `;`, `|` outside quotes), each as its words. */
export function simpleCommands(line) {
  const commands = [[]]
  let word = null
  let quote = null
  let depth = 0
  const endWord = () => {
    if (word !== null) commands[commands.length - 1].push(word)
    word = null
  }
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (quote) {
      if (char === quote && depth === 0) quote = null
      else {
        if (char === '(' && line[i - 1] === '$') depth++
        if (char === ')' && depth > 0) depth--
        word += char
      }
    } else if (char === "'" || char === '"') {
      quote = char
      word ??= ''
    } else if (/\s/.test(char)) endWord()
    else if ('|&;'.includes(char)) {
      endWord()
      if (line[i + 1] === char) i++
      commands.push([])
    } else word = (word ?? '') + char
  }
  endWord()
  return commands
    .map((words) => {
      const first = words.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w))
      return first === -1 ? [] : words.slice(first)
    })
    .filter((words) => words.length > 0)
}

/**
 * Every command of a runbook's ```sh blocks.
 *
 * @example
 * runbookCommands('```sh\nnpx wrangler d1 create x # needs an account\n```\n')
 * // [{ line: 'npx wrangler d1 create x', words: ['npx', 'wrangler', 'd1', 'create', 'x'], markedAccount: true }]
 * @param {string} markdown
 * @returns {RunbookCommand[]}
 */
export function runbookCommands(markdown) {
  const commands = []
  for (const block of shBlocks(markdown)) {
    let paragraphMarked = false
    let heredocEnd = null
    let pending = ''
    for (const raw of block.split('\n')) {
      if (heredocEnd !== null) {
        if (raw.trim() === heredocEnd) heredocEnd = null
        continue
      }
      if (raw.trim() === '') {
        paragraphMarked = false
        continue
      }
      if (raw.endsWith('\\')) {
        pending += `${raw.slice(0, -1)} `
        continue
      }
      const [line, comment] = withoutComment(pending + raw)
      pending = ''
      const marked = ACCOUNT_MARK.test(comment)
      if (!line) {
        paragraphMarked ||= marked
        continue
      }
      const heredoc = /<<-?\s*'?"?(\w+)'?"?/.exec(line)
      if (heredoc) heredocEnd = heredoc[1]
      const command = heredoc ? line.slice(0, heredoc.index) : line
      for (const words of simpleCommands(command)) {
        commands.push({ line, words, markedAccount: marked || paragraphMarked })
      }
    }
  }
  return commands
}
