/**
 * The FX pane's graph viewer through the real renderer (jsdom + real wasm graphviz): the first view (fitted,
 * or readable on the main op), search as you type (highlight, select, centre, reveal, step, clear), the
 * minimap, the AOT graphs drawn as pictures, and the export of a zoomed view. jsdom has no layout: the
 * viewport's client size is given here (800 px wide, its style height tall), and a 2D canvas context that
 * records what the minimap paints stands in for the canvas jsdom does not have.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FxGraphPane } from '../src/view/panes/fxGraph';
import { FOCUS_SCALE, READABLE_SCALE } from '../src/graph/viewer';
import { contains, toScreen, type IRect } from '../src/graph/transform';
import type { CompileReport, Node as FxNode } from '../src/schema';
import { graphGeometry, shapeBox } from '../src/graph/svgGeometry';
import { golden, pane, render } from './helpers';

const WIDTH = 800;
const DEFAULT_HEIGHT = 360;

/** What the minimap painted on its canvas. */
const painted: Array<{ op: 'fill' | 'stroke'; style: string }> = [];

beforeEach(() => {
  painted.length = 0;
  const isViewport = (el: Element): boolean =>
    el.classList.contains('jp-DynamoExplorer-viewport') && !el.closest('[hidden]');
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return isViewport(this) ? WIDTH : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return isViewport(this) ? parseFloat((this as HTMLElement).style.height) || DEFAULT_HEIGHT : 0;
  });
  const context = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    clearRect: () => {
      painted.length = 0; // each paint starts afresh: what is kept is the last picture
    },
    fillRect(this: { fillStyle: string }) {
      painted.push({ op: 'fill', style: this.fillStyle });
    },
    strokeRect(this: { strokeStyle: string }) {
      painted.push({ op: 'stroke', style: this.strokeStyle });
    }
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => context) as never);
});

afterEach(() => {
  document.body.textContent = '';
  vi.restoreAllMocks();
});

/** An FX node (a placeholder unless told). */
function fxNode(name: string, users: string[], op: FxNode['op'] = 'placeholder', stack: string[] = []): FxNode {
  return {
    name,
    op,
    target: op === 'call_function' ? 'torch.ops.aten.addmm.default' : name,
    args: '()',
    kwargs: '{}',
    users,
    shape: [4, 4],
    dtype: 'float32',
    line: 3,
    filename: 'model.py',
    nn_module_stack: stack
  };
}

/** The toy report with the graph of its first frame replaced by `nodes`. */
function withGraph(nodes: FxNode[]): CompileReport {
  const report = golden('toy_example');
  report.graphs.find(g => g.kind === 'dynamo' && g.compile_id === '0/0')!.nodes = nodes;
  return report;
}

/** A row of `n` inputs feeding one op (a layer's parameters): wide, drawn whole. */
function wideNodes(n: number): FxNode[] {
  const inputs = Array.from({ length: n }, (_, i) => fxNode(`p${i}`, ['op']));
  return [...inputs, fxNode('op', ['output'], 'call_function'), fxNode('output', [], 'output')];
}

/** A chain of `layers` modules of `per` ops: collapsed at first. */
function layered(layers: number, per: number): FxNode[] {
  const nodes = [fxNode('x', ['l0_op0'])];
  for (let l = 0; l < layers; l++) {
    for (let i = 0; i < per; i++) {
      const next = i + 1 < per ? `l${l}_op${i + 1}` : l + 1 < layers ? `l${l + 1}_op0` : 'output';
      nodes.push(fxNode(`l${l}_op${i}`, [next], 'call_function', ["L['self'].layers", `L['self'].layers.${l}`]));
    }
  }
  nodes.push(fxNode('output', [], 'output'));
  return nodes;
}

/** Render a report and return its FX pane, element and viewport. */
async function drawn(report: CompileReport) {
  const { widget, root } = await render(report);
  const fx = pane(root, 'fx-graph');
  const viewer = widget.view!.fxPane as FxGraphPane;
  const viewport = fx.querySelector<HTMLElement>('.jp-DynamoExplorer-viewport')!;
  return { root, fx, viewer, viewport };
}

/** Wait until the FX pane has drawn again. */
async function redrawn(fx: HTMLElement): Promise<void> {
  await vi.waitFor(() => expect(fx.dataset.state).toBe('drawn'), { timeout: 10_000 });
}

/** The screen box of a node in the viewport. */
function screenBox(fx: HTMLElement, viewer: FxGraphPane, name: string): IRect {
  const svg = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
  const g = svg.querySelector(`g.node[data-node="${name}"]`)!;
  return toScreen(viewer.panzoom.transform, shapeBox(g, graphGeometry(svg))!);
}

function expectCentred(fx: HTMLElement, viewer: FxGraphPane, name: string): void {
  const box = screenBox(fx, viewer, name);
  const size = viewer.panzoom.viewportSize();
  expect(box.x + box.width / 2).toBeCloseTo(size.width / 2, 0);
  expect(box.y + box.height / 2).toBeCloseTo(size.height / 2, 0);
}

function type(input: HTMLInputElement, text: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input'));
}

function key(input: HTMLElement, k: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
  input.dispatchEvent(event);
  return event;
}

describe('the first view', () => {
  it('fits a small graph: every node box inside the viewport', async () => {
    const report = golden('toy_example');
    const { fx, viewer, viewport } = await drawn(report);
    const graph = report.graphs.find(g => g.id === Number(fx.dataset.graphId))!;
    expect(viewer.panzoom.fitted).toBe(true);
    const size = viewer.panzoom.viewportSize();
    expect(size.height).toBe(parseFloat(viewport.style.height)); // sized to the picture
    for (const node of graph.nodes) {
      expect(contains({ x: 0, y: 0, ...size }, screenBox(fx, viewer, node.name)), node.name).toBe(true);
    }
    expect(viewport.getAttribute('tabindex')).toBe('0');
    expect(fx.querySelector('.jp-DynamoExplorer-zoomLabel')!.textContent).toBe(
      `${Math.round(viewer.panzoom.transform.k * 100)}%`
    );
    expect(fx.querySelector<HTMLElement>('.jp-DynamoExplorer-minimap')!.hidden).toBe(true); // all in view
  });

  it('starts a wide graph drawn whole at a readable scale, on its main op, with the minimap', async () => {
    const { fx, viewer } = await drawn(withGraph(wideNodes(40)));
    expect(viewer.panzoom.fitted).toBe(false);
    expect(viewer.panzoom.transform.k).toBe(READABLE_SCALE);
    const size = viewer.panzoom.viewportSize();
    expect(contains({ x: 0, y: 0, ...size }, screenBox(fx, viewer, 'op'))).toBe(true);
    expect(contains({ x: 0, y: 0, ...size }, screenBox(fx, viewer, 'p0'))).toBe(false);
    const minimap = fx.querySelector<HTMLElement>('.jp-DynamoExplorer-minimap')!;
    expect(minimap.hidden).toBe(false);
    expect(viewer.minimap.items).toHaveLength(42);
    expect(painted.filter(p => p.op === 'fill')).toHaveLength(42); // one box per node, no second layout
    // the fit button shows them all
    fx.querySelector<HTMLButtonElement>('button[data-zoom="fit"]')!.click();
    expect(viewer.panzoom.fitted).toBe(true);
    for (const name of ['p0', 'p39', 'op', 'output']) {
      expect(contains({ x: 0, y: 0, ...size }, screenBox(fx, viewer, name)), name).toBe(true);
    }
    expect(minimap.hidden).toBe(true);
  });

  it('fits the collapsed overview of a 10,000-node graph', async () => {
    const { fx, viewer } = await drawn(withGraph(layered(400, 25)));
    expect(fx.querySelector('.jp-DynamoExplorer-graphInfo')!.textContent).toContain('collapsed groups');
    expect(viewer.panzoom.fitted).toBe(true);
    expect(viewer.panzoom.showsAll()).toBe(true);
  });

  it('centres a cluster it opens (zoomed in to fill the view) and one it closes (same scale)', async () => {
    const { fx, viewer } = await drawn(withGraph(layered(400, 25)));
    const k0 = viewer.panzoom.transform.k;
    const box = fx.querySelector<SVGGElement>('svg g.node.jp-mod-collapsed[data-cluster]')!;
    const id = box.dataset.cluster!;
    box.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await redrawn(fx);
    const svg = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
    const open = svg.querySelector(`g.cluster[data-cluster="${id}"]`)!;
    const size = viewer.panzoom.viewportSize();
    const centreOf = (r: IRect): [number, number] => [r.x + r.width / 2, r.y + r.height / 2];
    const opened = toScreen(viewer.panzoom.transform, shapeBox(open, graphGeometry(svg))!);
    expect(viewer.panzoom.transform.k).toBeGreaterThan(k0);
    expect(centreOf(opened)[0]).toBeCloseTo(size.width / 2, 0);
    expect(centreOf(opened)[1]).toBeCloseTo(size.height / 2, 0);
    expect(contains({ x: 0, y: 0, ...size }, opened, 1) || opened.width > size.width - 32).toBe(true);
    const k1 = viewer.panzoom.transform.k;
    open.querySelector('text')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await redrawn(fx);
    const svg2 = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
    const closed = svg2.querySelector(`g.node[data-cluster="${id}"]`)!;
    expect(viewer.panzoom.transform.k).toBe(k1);
    const [cx, cy] = centreOf(toScreen(viewer.panzoom.transform, shapeBox(closed, graphGeometry(svg2))!));
    expect(cx).toBeCloseTo(size.width / 2, 0);
    expect(cy).toBeCloseTo(size.height / 2, 0);
  });

  it('zooms with its buttons', async () => {
    const { fx, viewer } = await drawn(golden('toy_example'));
    const k = viewer.panzoom.transform.k;
    fx.querySelector<HTMLButtonElement>('button[data-zoom="in"]')!.click();
    expect(viewer.panzoom.transform.k).toBeCloseTo(k * 1.25);
    fx.querySelector<HTMLButtonElement>('button[data-zoom="out"]')!.click();
    fx.querySelector<HTMLButtonElement>('button[data-zoom="out"]')!.click();
    expect(viewer.panzoom.transform.k).toBeCloseTo(k / 1.25);
  });
});

describe('search as you type', () => {
  it('highlights the hits, dims the rest, selects and centres the first; Enter/↓/↑ step; Escape clears', async () => {
    const { fx, viewer } = await drawn(withGraph(wideNodes(40)));
    const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
    const svg = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
    const count = fx.querySelector('.jp-DynamoExplorer-searchCount')!;
    const selected = (): string[] =>
      Array.from(svg.querySelectorAll<SVGGElement>('g.node.jp-mod-selected')).map(g => g.dataset.node!);
    type(input, 'p3'); // p3, p30 … p39
    const hits = ['p3', ...Array.from({ length: 10 }, (_, i) => `p3${i}`)];
    expect(svg.classList.contains('jp-mod-searching')).toBe(true);
    expect(Array.from(svg.querySelectorAll<SVGGElement>('g.node.jp-mod-hit')).map(g => g.dataset.node)).toEqual(hits);
    expect(count.textContent).toBe('1 / 11');
    expect(selected()).toEqual(['p3']);
    expect(fx.querySelector('.jp-DynamoExplorer-detailsTitle')!.textContent).toBe('p3');
    expect(viewer.panzoom.transform.k).toBeGreaterThanOrEqual(FOCUS_SCALE);
    expectCentred(fx, viewer, 'p3');
    expect(fx.querySelectorAll('.jp-DynamoExplorer-searchResults button[data-node]')).toHaveLength(11); // chips stay
    expect(painted.some(p => p.style === '#1976d2')).toBe(true); // hits in the accent colour on the minimap

    const reached: string[] = [];
    document.addEventListener('keydown', e => reached.push(e.key));
    expect(key(input, 'Enter').defaultPrevented).toBe(true);
    expect(count.textContent).toBe('2 / 11');
    expect(selected()).toEqual(['p30']);
    expectCentred(fx, viewer, 'p30');
    key(input, 'ArrowDown');
    expect(selected()).toEqual(['p31']);
    key(input, 'ArrowUp');
    key(input, 'ArrowUp');
    expect(selected()).toEqual(['p3']);
    key(input, 'ArrowUp'); // wraps to the last
    expect(selected()).toEqual(['p39']);
    expect(count.textContent).toBe('11 / 11');
    key(input, 'Enter', { shiftKey: true });
    expect(selected()).toEqual(['p38']);
    fx.querySelector<HTMLButtonElement>('.jp-DynamoExplorer-searchResults button[data-node="p35"]')!.click();
    expect(selected()).toEqual(['p35']);
    expect(count.textContent).toBe('7 / 11');
    key(input, 'Escape');
    expect(input.value).toBe('');
    expect(svg.classList.contains('jp-mod-searching')).toBe(false);
    expect(svg.querySelectorAll('g.jp-mod-hit')).toHaveLength(0);
    expect(fx.querySelectorAll('.jp-DynamoExplorer-searchResults button')).toHaveLength(0);
    expect(count.textContent).toBe('');
    expect(reached).toEqual([]); // the search box's keys never reach the notebook
  });

  it('opens the clusters a hit is in and centres it, laying out once for a burst of keystrokes', async () => {
    const { fx, viewer } = await drawn(withGraph(layered(400, 25)));
    const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
    expect(fx.querySelector('g.node[data-node="l377_op13"]')).toBeNull();
    const before = fx.querySelector('.jp-DynamoExplorer-picture svg');
    type(input, 'l377');
    type(input, 'l377_op1');
    type(input, 'l377_op13');
    expect(fx.querySelector('.jp-DynamoExplorer-picture svg')).toBe(before); // not yet: waits for the typing to stop
    await vi.waitFor(() => expect(fx.querySelector('g.node[data-node="l377_op13"]')).not.toBeNull(), {
      timeout: 10_000
    });
    await redrawn(fx);
    const g = fx.querySelector('g.node[data-node="l377_op13"]')!;
    expect(g.classList.contains('jp-mod-hit')).toBe(true);
    expect(g.classList.contains('jp-mod-selected')).toBe(true);
    expectCentred(fx, viewer, 'l377_op13');
    expect(viewer.model!.visibleItemOf(viewer.search.current!)).toBe(viewer.search.current);
  });

  it('highlights the collapsed clusters that hold hits, before it opens them', async () => {
    const { fx, viewer } = await drawn(withGraph(layered(400, 25)));
    const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
    type(input, 'l2_op'); // l2_op*, l20_op* … l299_op*: all inside collapsed clusters
    const model = viewer.model!;
    const expected = new Set(viewer.search.hits.map(hit => model.visibleItemOf(hit).id));
    const marked = Array.from(fx.querySelectorAll<SVGGElement>('svg g.node.jp-mod-hit'), g => g.dataset.cluster);
    expect(expected.size).toBeGreaterThan(0);
    expect(new Set(marked)).toEqual(expected);
    expect(fx.querySelectorAll('svg g.node[data-cluster]:not(.jp-mod-hit)').length).toBeGreaterThan(0); // the rest dims
    await redrawn(fx);
  });
});

describe('the minimap', () => {
  it('appears once zoomed in, outlines the view, and a press on it moves the view there', async () => {
    const { fx, viewer } = await drawn(golden('toy_example'));
    const minimap = fx.querySelector<HTMLElement>('.jp-DynamoExplorer-minimap')!;
    expect(minimap.hidden).toBe(true);
    const svg = fx.querySelector('.jp-DynamoExplorer-picture svg')!;
    expect(viewer.minimap.items).toHaveLength(0); // not shown: its boxes are not even read
    expect(painted).toHaveLength(0);
    for (let i = 0; i < 4; i++) {
      fx.querySelector<HTMLButtonElement>('button[data-zoom="in"]')!.click();
    }
    expect(minimap.hidden).toBe(false);
    expect(viewer.minimap.items).toHaveLength(svg.querySelectorAll('g.node, g.cluster').length);
    expect(painted.length).toBe(viewer.minimap.items.length);
    const frame = minimap.querySelector<HTMLElement>('.jp-DynamoExplorer-minimapFrame')!;
    const s = viewer.minimap.scale;
    const visible = viewer.panzoom.visible();
    expect(parseFloat(frame.style.left)).toBeCloseTo(Math.max(0, visible.x * s), 1);
    expect(parseFloat(frame.style.top)).toBeCloseTo(Math.max(0, visible.y * s), 1);
    const area = (el: HTMLElement): number => parseFloat(el.style.width) * parseFloat(el.style.height);
    expect(area(frame)).toBeLessThan(area(minimap)); // only part of the picture is in view
    // jsdom puts the minimap at (0, 0): clientX/Y are minimap pixels
    const down = new MouseEvent('pointerdown', {
      clientX: 10,
      clientY: 12,
      button: 0,
      bubbles: true,
      cancelable: true
    });
    Object.defineProperty(down, 'pointerId', { value: 7 });
    minimap.dispatchEvent(down);
    const after = viewer.panzoom.visible();
    expect(after.x + after.width / 2).toBeCloseTo(10 / s, 0);
    expect(after.y + after.height / 2).toBeCloseTo(12 / s, 0);
  });
});

describe('AOT graphs as pictures', () => {
  it('lists the frame graphs by kind and draws the AOT ones with the same model', async () => {
    const report = golden('training_step');
    const { fx, viewer } = await drawn(report);
    const buttons = Array.from(fx.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-graphButtons button'));
    expect(buttons.map(b => b.textContent)).toEqual(['dynamo', 'joint', 'forward', 'backward']);
    expect(buttons[0].classList.contains('jp-mod-selected')).toBe(true);
    expect(fx.dataset.graphKind).toBe('dynamo');
    for (const kind of ['aot_joint', 'aot_forward', 'aot_backward'] as const) {
      const graph = report.graphs.find(g => g.kind === kind)!;
      buttons.find(b => b.dataset.kind === kind)!.click();
      await redrawn(fx);
      expect(fx.dataset.graphKind).toBe(kind);
      const drawnNodes = Array.from(fx.querySelectorAll<SVGGElement>('svg g.node[data-node]')).map(g => g.dataset.node);
      expect(drawnNodes.sort()).toEqual(graph.nodes.map(n => n.name).sort());
      const labels = Array.from(
        fx.querySelectorAll('.jp-DynamoExplorer-picture svg g.node text'),
        t => t.textContent
      ).join('\n');
      expect(labels).toContain('aten.');
      expect(labels).not.toContain('torch.ops.');
      expect(fx.querySelector('.jp-DynamoExplorer-graphInfo')!.textContent).toContain(
        `AOTAutograd ${kind.slice(4)} graph`
      );
      expect(viewer.panzoom.showsAll() || viewer.panzoom.transform.k === READABLE_SCALE).toBe(true);
    }
    // search works on the graph shown
    const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
    type(input, 'tangents');
    expect(viewer.search.hits.map(h => h.node.name)).toEqual(['tangents_1']);
  });
});

describe('export of a zoomed, searched view', () => {
  it('is the whole graph, without the dimming of the search', async () => {
    const style = document.createElement('style');
    style.textContent = readFileSync(resolve(__dirname, '../style/panes/fx-graph.css'), 'utf8');
    document.head.appendChild(style);
    try {
      const report = golden('toy_example');
      const { fx, viewer } = await drawn(report);
      const graph = report.graphs.find(g => g.id === Number(fx.dataset.graphId))!;
      for (let i = 0; i < 4; i++) {
        viewer.panzoom.zoomBy(1.25);
      }
      const input = fx.querySelector<HTMLInputElement>('input[type="search"]')!;
      type(input, graph.nodes[1].name);
      const svg = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
      const other = svg.querySelector<SVGGElement>('g.node:not(.jp-mod-hit)')!;
      expect(getComputedStyle(other).opacity).toBe('0.3'); // dimmed in the page
      const blobs: Blob[] = [];
      const created = URL.createObjectURL;
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:test'),
        revokeObjectURL: () => undefined
      });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      try {
        await viewer.exportPicture('svg');
      } finally {
        Object.assign(URL, { createObjectURL: created });
      }
      const text = await new Promise<string>(r => {
        const reader = new FileReader();
        reader.addEventListener('load', () => r(String(reader.result)));
        reader.readAsText(blobs[0]);
      });
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      expect(doc.documentElement.getAttribute('viewBox')).toBe(svg.getAttribute('viewBox'));
      expect(doc.documentElement.getAttribute('width')).toBe(svg.getAttribute('width'));
      expect(doc.querySelectorAll('g.node')).toHaveLength(graph.nodes.length);
      expect(text).not.toContain('opacity: 0.3');
      expect(svg.classList.contains('jp-mod-searching')).toBe(true); // the page keeps its search
    } finally {
      style.remove();
    }
  });
});
