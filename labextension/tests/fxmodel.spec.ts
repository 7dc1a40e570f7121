/**
 * The cluster tree of big FX graphs: the first view stays small, every node stays reachable, search
 * and reveal work, edges follow the visible items, and the DOT lays out with the real wasm graphviz.
 */
import { describe, expect, it } from 'vitest';
import { FxModel, type ICluster, type Item } from '../src/fxmodel';
import { renderDot } from '../src/graphviz';
import type { Node as FxNode } from '../src/schema';

/** A chain of `layers` blocks of `perLayer` ops, each block under its own module path (as nn_module_stack has it). */
function layeredNodes(layers: number, perLayer: number, withModules = true): FxNode[] {
  const nodes: FxNode[] = [];
  const node = (name: string, op: FxNode['op'], users: string[], stack: string[]): FxNode => ({
    name,
    op,
    target: op === 'call_function' ? 'torch.relu' : name,
    args: '()',
    kwargs: '{}',
    users,
    shape: [2, 8],
    dtype: 'float32',
    line: 3,
    filename: 'model.py',
    nn_module_stack: stack
  });
  nodes.push(node('x', 'placeholder', ['l0_op0'], []));
  for (let l = 0; l < layers; l++) {
    for (let i = 0; i < perLayer; i++) {
      const next = i + 1 < perLayer ? `l${l}_op${i + 1}` : l + 1 < layers ? `l${l + 1}_op0` : 'output';
      const stack = withModules
        ? ["L['self'].layers", `L['self'].layers.${l}`, `L['self'].layers.${l}.${i % 2 ? 'mlp' : 'attn'}`]
        : [];
      nodes.push(node(`l${l}_op${i}`, 'call_function', [next], stack));
    }
  }
  nodes.push(node('output', 'output', [], []));
  return nodes;
}

function leaves(item: Item): number {
  return item.kind === 'node' ? 1 : item.children.reduce((n, c) => n + leaves(c), 0);
}

function maxFanout(c: ICluster): number {
  return Math.max(c.children.length, ...c.children.filter((x): x is ICluster => x.kind === 'cluster').map(maxFanout));
}

describe('FxModel', () => {
  it.each([true, false])('keeps a 10,000-node graph small at first (modules: %s)', withModules => {
    const nodes = layeredNodes(400, 25, withModules);
    const model = new FxModel(nodes);
    expect(leaves(model.root)).toBe(nodes.length);
    expect(model.root.size).toBe(nodes.length);
    expect(maxFanout(model.root)).toBeLessThanOrEqual(model.options.maxChildren);
    const { visibleCount, items } = model.toDot();
    expect(visibleCount).toBeLessThanOrEqual(model.options.initialBudget);
    expect(visibleCount).toBeGreaterThan(1);
    expect([...items.values()].some(i => i.kind === 'cluster' && !model.isExpanded(i))).toBe(true);
  });

  it('draws a small graph whole', () => {
    const nodes = layeredNodes(3, 5);
    const model = new FxModel(nodes);
    const { visibleCount, dot } = model.toDot();
    expect(visibleCount).toBe(nodes.length);
    expect(dot.match(/ -> /g)).toHaveLength(nodes.length - 1);
  });

  it('reveals a searched node and keeps edges between visible items', async () => {
    const model = new FxModel(layeredNodes(400, 25));
    const [hit] = model.search('l377_op13');
    expect(hit.node.name).toBe('l377_op13');
    expect(model.visibleItemOf(hit)).not.toBe(hit);
    model.reveal(hit);
    expect(model.visibleItemOf(hit)).toBe(hit);
    const { dot, items, visibleCount } = model.toDot();
    expect(items.get(hit.id)).toBe(hit);
    expect(visibleCount).toBeLessThan(400);
    for (const [, from, to] of dot.matchAll(/ (\w+) -> (\w+)/g)) {
      expect(items.has(from) && items.has(to), `${from} -> ${to}`).toBe(true);
    }
    const svg = await renderDot(dot);
    expect(svg.querySelectorAll('g.node').length).toBe(visibleCount);
  });

  it('opens and closes clusters', () => {
    const model = new FxModel(layeredNodes(400, 25));
    const before = model.toDot().visibleCount;
    const closed = [...model.toDot().items.values()].find(
      (i): i is ICluster => i.kind === 'cluster' && !model.isExpanded(i)
    )!;
    model.setExpanded(closed, true);
    const after = model.toDot().visibleCount;
    expect(after).toBe(before - 1 + closed.children.length);
    model.setExpanded(closed, false);
    expect(model.toDot().visibleCount).toBe(before);
    model.setExpanded(model.root, false);
    expect(model.isExpanded(model.root)).toBe(true);
  });
});
