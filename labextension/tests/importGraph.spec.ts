/**
 * No import circle among the renderer's modules (issue 26 items 2 and 4; tests/engine/test_import_graph.py is the
 * engine's twin), type-only imports included: an `import type` ties no module's initialization to another's, but
 * a circle of types still ties the base layers to the features built on them (the panes' base class to the view,
 * as it once did). The graph is read from the sources: every `import ... from './y'`, `import './y'` and
 * `export ... from './y'`, whether of values or of types.
 *
 * And the folders stay layers: `schema.ts` (and `diffSchema.ts`, the diff's types: the same layer) and `dom.ts`
 * import nothing of ours; `model/` (the pure report
 * models) imports only the schema and itself; `graph/` (the graph viewer) the schema, the DOM helpers and itself;
 * `view/` (the report view and its panes) all of those; only `hosts/` (the JupyterLab plugin, the renderer, the
 * standalone page and the anywidget) and `index.ts` import `hosts/`.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '../src');
const IMPORT = /^(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Module (path under src, no extension) -> the modules it imports anything of (values or types). */
export function moduleImports(): Map<string, Set<string>> {
  const files = sources(SRC);
  const names = new Set(files.map(f => relative(SRC, f).replace(/\.ts$/, '')));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const me = relative(SRC, file).replace(/\.ts$/, '');
    const edges = new Set<string>();
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(me), spec));
      if (names.has(target)) {
        edges.add(target);
      }
    }
    graph.set(me, edges);
  }
  return graph;
}

/** The layer of a module: its folder, or the module itself at the top of src (the diff's generated types are the schema's layer). */
function layer(module: string): string {
  if (module === 'diffSchema') {
    return 'schema';
  }
  return module.includes('/') ? module.slice(0, module.indexOf('/')) : module;
}

/** What each layer may import (besides itself). */
const MAY_IMPORT: Record<string, string[]> = {
  schema: [],
  dom: [],
  model: ['schema'],
  graph: ['schema', 'dom'],
  view: ['schema', 'dom', 'model', 'graph'],
  hosts: ['schema', 'dom', 'model', 'graph', 'view'],
  index: ['schema', 'dom', 'model', 'graph', 'view', 'hosts']
};

/** The imports that go against the layers: `from -> to`. */
export function layerBreaks(graph: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const allowed = MAY_IMPORT[layer(from)];
    for (const to of targets) {
      if (layer(to) !== layer(from) && !(allowed ?? []).includes(layer(to))) {
        out.push(`${from} -> ${to}`);
      }
    }
  }
  return out.sort();
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
  it('has no circle of imports, type-only ones included', () => {
    const graph = moduleImports();
    expect(graph.size).toBeGreaterThan(60);
    expect(graph.get('view/view')!.size).toBeGreaterThan(3);
    // type-only imports count: the view's base types are imported by every pane with `import type` alone
    expect(graph.get('view/panes/pane')).toContain('view/context');
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the folders as layers: models, graph viewer, view, hosts', () => {
    const graph = moduleImports();
    expect([...graph.keys()].map(layer).filter(l => !(l in MAY_IMPORT))).toEqual([]);
    expect(layerBreaks(graph)).toEqual([]);
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
