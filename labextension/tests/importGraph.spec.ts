/**
 * No import circle among the renderer's modules (issue 26 item 2; tests/engine/test_import_graph.py is the engine's
 * twin). The graph is read from the sources: every import of a value (`import { x } from './y'`,
 * `import './y'`); an `import type` and a named import whose names are all `type` are erased by TypeScript and
 * left out (they tie no module's initialization to another's).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '../src');
const IMPORT = /^import\s+(type\s+)?(?:([^'"]*?)\s+from\s+)?['"](\.[^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Module (path under src, no extension) -> the modules it imports a value of. */
export function valueImports(): Map<string, Set<string>> {
  const files = sources(SRC);
  const names = new Set(files.map(f => relative(SRC, f).replace(/\.ts$/, '')));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const me = relative(SRC, file).replace(/\.ts$/, '');
    const edges = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const [, typeOnly, clause, spec] = m;
      const braces = clause?.match(/^\{([^}]*)\}$/);
      const allTypes =
        braces !== null &&
        braces !== undefined &&
        braces[1]
          .split(',')
          .map(s => s.trim())
          .filter(Boolean)
          .every(s => s.startsWith('type '));
      if (typeOnly || allTypes) {
        continue;
      }
      const target = normalize(join(dirname(me), spec));
      if (names.has(target)) {
        edges.add(target);
      }
    }
    graph.set(me, edges);
  }
  return graph;
}

/** The strongly connected components of more than one module (Tarjan), each sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) {
        out.push(component.sort());
      }
    }
  };
  for (const v of [...graph.keys()].sort()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return out;
}

describe('the import graph', () => {
  it('has no circle of value imports', () => {
    const graph = valueImports();
    expect(graph.size).toBeGreaterThan(40);
    expect(graph.get('view')!.size).toBeGreaterThan(3);
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])]
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
