#!/usr/bin/env python3
"""Issue 26, the reference API apart: moves src/api/ to reference-api/ and the contract's files from src/upstream/ and
src/geo/ to contract/ (git mv), then rewrites every relative import of the tree's .ts/.tsx/.mjs files to the files'
new places, also imports that still name a place already moved (a branch merged after the move). Run at the
repository's root; a second run moves and rewrites nothing."""
import os, re, subprocess

CONTRACT = ['schemas', 'account-schemas', 'cart-schemas', 'catalogue-schemas', 'checkout-schemas', 'form-schemas',
            'payment-schemas', 'newsletter-schemas', 'page-index-schemas', 'staff-schemas', 'whistleblower-schemas', 'fields',
            'direction-controls', 'tokens']
CONTRACT_MOVES = {f'src/upstream/{name}.ts': f'contract/{name}.ts' for name in CONTRACT}
CONTRACT_MOVES['src/geo/distance.ts'] = 'contract/distance.ts'

def new_of(path):
    if path in CONTRACT_MOVES:
        return CONTRACT_MOVES[path]
    return 'reference-api/' + path[len('src/api/'):] if path.startswith('src/api/') else path

git = lambda *args: subprocess.run(['git', *args], capture_output=True, text=True, check=True).stdout.split()
known = set(git('ls-files'))
moves = {path: new_of(path) for path in known if new_of(path) != path}
SPEC = re.compile(r"""((?:from|import)\s*\(?\s*['"])(\.{1,2}/[^'"]*)(['"])""")

def resolve(directory, spec):
    base = os.path.normpath(os.path.join(directory, spec))
    for suffix in ('', '.ts', '.tsx', '/index.ts', '/index.tsx'):
        if base + suffix in known or new_of(base + suffix) in known:
            return base + suffix, suffix
    return None, None

rewrites = {}
for path in (f for f in known if f.endswith(('.ts', '.tsx', '.mjs'))):
    text = open(path).read()
    def rewrite(match):
        target, suffix = resolve(os.path.dirname(path), match.group(2))
        if target is None or (new_of(target) == target and path not in moves):
            return match.group(0)
        new_target = new_of(target)[: len(new_of(target)) - len(suffix)] if suffix else new_of(target)
        spec = os.path.relpath(new_target, os.path.dirname(new_of(path)))
        return match.group(1) + (spec if spec.startswith('.') else './' + spec) + match.group(3)
    changed = SPEC.sub(rewrite, text)
    if changed != text:
        rewrites[path] = changed
for old, new in sorted(moves.items()):
    os.makedirs(os.path.dirname(new), exist_ok=True)
    subprocess.run(['git', 'mv', old, new], check=True)
for path, text in rewrites.items():
    open(new_of(path), 'w').write(text)
print(f'{len(moves)} files moved, imports rewritten in {len(rewrites)} files')
