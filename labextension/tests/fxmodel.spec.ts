/**
 * The cluster tree of big FX graphs: the first view stays small, every node stays reachable, search
 * and reveal work, edges follow the visible items, and the DOT lays out with the real wasm graphviz. AOT
 * graphs (aten targets, no nn_module_stack) go through the same model; node labels name lifted parameters
 * by their module path.
 */
import { describe, expect, it } from 'vitest';
import {
  displayName,
  FxModel,
  liftedPath,
  modulePath,
  nodeLabel,
  wrapPath,
  type ICluster,
  type Item
} from '../src/graph/fxmodel';
import { renderDot } from '../src/graph/graphviz';
import type { Node as FxNode } from '../src/schema';
import { golden } from './helpers';

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

/** An AOTAutograd graph as the engine parses it (aot_graphs.parse_readable): primals and tangents as inputs,
 * a chain of aten ops, no nn_module_stack, an output. */
function aotNodes(ops: number): FxNode[] {
  const node = (name: string, op: FxNode['op'], target: string, users: string[]): FxNode => ({
    name,
    op,
    target,
    args: '()',
    kwargs: '{}',
    users,
    shape: [4, 16],
    dtype: 'float32',
    line: op === 'call_function' ? 7 : null,
    filename: op === 'call_function' ? '<cell>' : null,
    nn_module_stack: []
  });
  const targets = ['torch.ops.aten.addmm.default', 'torch.ops.aten.relu.default', 'torch.ops.aten.permute.default'];
  const name = (i: number): string => `${['addmm', 'relu', 'permute'][i % 3]}_${i}`;
  const nodes = [
    node('primals_1', 'placeholder', 'primals_1', [name(0)]),
    node('tangents_1', 'placeholder', 'tangents_1', [name(ops - 1)])
  ];
  for (let i = 0; i < ops; i++) {
    nodes.push(node(name(i), 'call_function', targets[i % 3], [i + 1 < ops ? name(i + 1) : 'output']));
  }
  nodes.push(node('output', 'output', 'output', []));
  return nodes;
}

describe('AOT graphs', () => {
  it('keeps a 10,000-node AOT graph (no nn_module_stack) small at first, every node reachable', async () => {
    const nodes = aotNodes(10_000);
    const model = new FxModel(nodes);
    expect(leaves(model.root)).toBe(nodes.length);
    expect(maxFanout(model.root)).toBeLessThanOrEqual(model.options.maxChildren);
    const first = model.toDot();
    expect(first.visibleCount).toBeLessThanOrEqual(model.options.initialBudget);
    const [hit] = model.search('aten.relu');
    expect(hit.node.name).toBe('relu_1');
    const deep = model.search('relu_7777')[0];
    expect(model.visibleItemOf(deep)).not.toBe(deep);
    model.reveal(deep);
    const { dot, items } = model.toDot();
    expect(items.get(deep.id)).toBe(deep);
    const svg = await renderDot(dot);
    expect(svg.querySelector('g.node > title')).not.toBeNull();
  });

  it("draws the golden training step's joint graph whole, labelled with aten ops", async () => {
    const graph = golden('training_step').graphs.find(g => g.kind === 'aot_joint')!;
    expect(graph.nodes.every(n => n.nn_module_stack.length === 0)).toBe(true);
    const model = new FxModel(graph.nodes);
    const { dot, visibleCount } = model.toDot();
    expect(visibleCount).toBe(graph.nodes.length);
    expect(dot).toContain('aten.addmm.default');
    expect(dot).not.toContain('torch.ops.aten');
    const svg = await renderDot(dot);
    expect(svg.querySelectorAll('g.node')).toHaveLength(graph.nodes.length);
  });
});

describe('node labels', () => {
  it('names a lifted parameter by its module path, relative to the module it is drawn in, wrapped at dots', () => {
    expect(liftedPath('g_layer_modules_self_attn_parameters_in_proj_bias_')).toBe('layer.self_attn.in_proj_bias');
    expect(liftedPath('l_self_modules_layers_modules_0_modules_linear1_parameters_weight_')).toBe(
      'self.layers.0.linear1.weight'
    );
    expect(liftedPath('l_self_buffers_running_mean_')).toBe('self.running_mean');
    expect(liftedPath('l_x_')).toBeNull();
    expect(liftedPath('primals_1')).toBeNull();
    expect(modulePath("L['self'].layers.0")).toBe('self.layers.0');
    expect(modulePath("G['layer']")).toBe('layer');
    expect(wrapPath('self_attn.in_proj_bias')).toBe('self_attn.\nin_proj_bias');
    expect(wrapPath('norm1.weight')).toBe('norm1.weight');
    expect(wrapPath('a_very_long_module_name_indeed.w')).toBe('a_very_long_module_name_indeed.\nw');
    const param: FxNode = {
      name: 'g_layer_modules_norm1_parameters_weight_',
      op: 'placeholder',
      target: 'G_layer_modules_norm1_parameters_weight_',
      args: '()',
      kwargs: '{}',
      users: [],
      shape: [16],
      dtype: 'torch.float32',
      line: null,
      filename: null,
      nn_module_stack: ["G['layer']"]
    };
    expect(displayName(param)).toBe('norm1.weight');
    expect(displayName({ ...param, nn_module_stack: [] })).toBe('layer.norm1.weight');
    expect(displayName({ ...param, op: 'get_attr' })).toBe(param.name); // only inputs are renamed
    expect(nodeLabel(param)).toBe('norm1.weight\nfloat32[16]');
    expect(nodeLabel({ ...param, name: 'mm', op: 'call_function', target: 'torch.ops.aten.mm.default' })).toBe(
      'mm\naten.mm.default\nfloat32[16]'
    );
  });
});
