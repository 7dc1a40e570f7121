/**
 * The graph viewer's maths (transform.ts) and input (panzoom.ts), the search cursor (fxsearch.ts) and the
 * geometry read from graphviz's SVG (svgGeometry.ts, checked against the real wasm graphviz's output).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SearchCursor } from '../src/graph/fxsearch';
import { renderDot } from '../src/graph/graphviz';
import { PanZoom } from '../src/graph/panzoom';
import {
  constrain,
  contains,
  DEFAULT_LIMITS,
  fitRect,
  fitScale,
  fitTransform,
  minScale,
  toScreen,
  transformCss,
  visibleRect,
  wheelFactor,
  zoomAt,
  ZOOM_STEP,
  type ISize,
  type ITransform
} from '../src/graph/transform';
import { graphGeometry, lengthPx, shapeBox, simpleTransform } from '../src/graph/svgGeometry';

afterEach(() => {
  document.body.textContent = '';
});

/** Where a picture point lands in the viewport. */
function screen(t: ITransform, x: number, y: number): [number, number] {
  return [x * t.k + t.x, y * t.k + t.y];
}

describe('zoom and fit maths', () => {
  const viewport: ISize = { width: 800, height: 400 };

  it('zooms at a point: the picture point under it stays under it', () => {
    const t = { x: 30, y: -20, k: 0.8 };
    const at = { x: 250, y: 120 };
    const before = { x: (at.x - t.x) / t.k, y: (at.y - t.y) / t.k };
    const z = zoomAt(t, 1.5, at, DEFAULT_LIMITS);
    expect(z.k).toBeCloseTo(1.2);
    const [sx, sy] = screen(z, before.x, before.y);
    expect(sx).toBeCloseTo(at.x);
    expect(sy).toBeCloseTo(at.y);
    expect(zoomAt(t, 100, at, DEFAULT_LIMITS).k).toBe(DEFAULT_LIMITS.max);
    expect(zoomAt(t, 0.001, at, DEFAULT_LIMITS).k).toBe(DEFAULT_LIMITS.min);
  });

  it('fits a big picture whole and centred, and never blows a small one up', () => {
    const content = { width: 2000, height: 500 };
    const t = fitTransform(content, viewport, 16);
    expect(t.k).toBeCloseTo((800 - 32) / 2000);
    const box = toScreen(t, { x: 0, y: 0, ...content });
    expect(contains({ x: 0, y: 0, ...viewport }, box)).toBe(true);
    expect(box.x).toBeCloseTo(16);
    expect(box.y + box.height / 2).toBeCloseTo(200); // centred across the other axis
    const small = fitTransform({ width: 100, height: 50 }, viewport, 16);
    expect(small.k).toBe(1);
    expect(screen(small, 50, 25)).toEqual([400, 200]);
    expect(fitScale({ width: 0, height: 0 }, viewport, 16)).toBe(1);
  });

  it('fits a rectangle within scale bounds', () => {
    const rect = { x: 100, y: 100, width: 50, height: 20 };
    const t = fitRect(rect, viewport, { padding: 10, minScale: 0.5, maxScale: 2 });
    expect(t.k).toBe(2);
    expect(screen(t, 125, 110)).toEqual([400, 200]);
    expect(fitRect({ ...rect, width: 8000 }, viewport, { padding: 10, minScale: 0.5 }).k).toBe(0.5);
  });

  it('lets a fit go below the zoom limit when the picture needs it', () => {
    const huge = { width: 40000, height: 300 };
    expect(minScale(huge, viewport, 16, DEFAULT_LIMITS)).toBeLessThan(DEFAULT_LIMITS.min);
    expect(minScale({ width: 100, height: 100 }, viewport, 16, DEFAULT_LIMITS)).toBe(DEFAULT_LIMITS.min);
  });

  it('keeps some of the picture in view however far it is panned', () => {
    const content = { width: 1000, height: 1000 };
    const away = constrain({ x: 5000, y: -9000, k: 1 }, content, viewport, 40);
    const box = toScreen(away, { x: 0, y: 0, ...content });
    expect(box.x).toBe(800 - 40); // 40 px of the left edge still in view
    expect(box.y + box.height).toBe(40); // 40 px of the bottom still in view
    const ok = { x: -100, y: -200, k: 1 };
    expect(constrain(ok, content, viewport, 40)).toEqual(ok);
  });

  it('maps the visible part of the picture back and forth', () => {
    const t = { x: -150, y: 40, k: 2 };
    const v = visibleRect(t, viewport);
    expect(v).toEqual({ x: 75, y: -20, width: 400, height: 200 });
    expect(toScreen(t, v)).toEqual({ x: 0, y: 0, width: 800, height: 400 });
    expect(transformCss(t)).toBe('translate(-150px, 40px) scale(2)');
  });

  it('turns wheel deltas into zoom factors: up zooms in, down out, one notch about one step', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(-100, 0) * wheelFactor(100, 0)).toBeCloseTo(1);
    expect(wheelFactor(-100, 0)).toBeCloseTo(ZOOM_STEP, 1);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-48, 0)); // lines
    expect(wheelFactor(-1e6, 0)).toBe(wheelFactor(-200, 0)); // one event never jumps far
  });
});

/** A viewport with a stage and a picture of `content`, its size given (jsdom has no layout). */
function viewer(size: ISize = { width: 800, height: 400 }, content: ISize = { width: 1600, height: 1200 }) {
  const viewport = document.createElement('div');
  const stage = document.createElement('div');
  const node = document.createElement('span');
  stage.appendChild(node);
  viewport.appendChild(stage);
  viewport.tabIndex = 0;
  const parent = document.createElement('div');
  parent.appendChild(viewport);
  document.body.appendChild(parent);
  const hints: number[] = [];
  const changes: ITransform[] = [];
  const pz = new PanZoom(viewport, stage, {
    size: () => size,
    padding: 16,
    onChange: t => changes.push(t),
    onWheelHint: () => hints.push(1)
  });
  pz.setContent(content);
  return { pz, viewport, stage, node, parent, hints, changes };
}

function pointer(type: string, x: number, y: number, id = 1): PointerEvent {
  // jsdom has no PointerEvent constructor: a MouseEvent with the pointer fields the viewer reads.
  const event = new MouseEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true, cancelable: true });
  Object.defineProperty(event, 'pointerId', { value: id });
  return event as PointerEvent;
}

describe('PanZoom', () => {
  it('fits, and writes the transform on the stage only', () => {
    const { pz, stage, viewport } = viewer();
    expect(pz.fit()).toBe(true);
    expect(pz.fitted).toBe(true);
    expect(pz.transform.k).toBeCloseTo((400 - 32) / 1200);
    expect(pz.showsAll()).toBe(true);
    expect(stage.style.transform).toBe(transformCss(pz.transform));
    expect(viewport.dataset.scale).toBe(String(Math.round(pz.transform.k * 1000) / 1000));
  });

  it('waits for a size before it fits', () => {
    let size = { width: 0, height: 0 };
    const viewport = document.createElement('div');
    const stage = document.createElement('div');
    const pz = new PanZoom(viewport, stage, { size: () => size });
    pz.setContent({ width: 100, height: 100 });
    expect(pz.fit()).toBe(false);
    expect(pz.fitted).toBe(false);
    size = { width: 300, height: 300 };
    expect(pz.fit()).toBe(true);
  });

  it('zooms with ctrl + wheel at the pointer, and leaves a plain wheel to the page', () => {
    const { pz, viewport, hints } = viewer();
    pz.fit();
    const t = pz.transform;
    const plain = new WheelEvent('wheel', { deltaY: -100, clientX: 200, clientY: 100, cancelable: true });
    viewport.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);
    expect(pz.transform).toEqual(t);
    expect(hints).toHaveLength(1);
    const ctrl = new WheelEvent('wheel', { deltaY: -100, clientX: 200, clientY: 100, ctrlKey: true, cancelable: true });
    viewport.dispatchEvent(ctrl);
    expect(ctrl.defaultPrevented).toBe(true);
    const z = pz.transform;
    expect(z.k).toBeGreaterThan(t.k);
    const picture = { x: (200 - t.x) / t.k, y: (100 - t.y) / t.k };
    expect(screen(z, picture.x, picture.y)[0]).toBeCloseTo(200);
    expect(screen(z, picture.x, picture.y)[1]).toBeCloseTo(100);
    expect(pz.fitted).toBe(false);
  });

  it('acts on its keys only while focused, and lets every other key reach the notebook', () => {
    const { pz, viewport, parent, node } = viewer();
    pz.fit();
    const k0 = pz.transform.k;
    const reached: string[] = [];
    parent.addEventListener('keydown', e => reached.push(e.key));
    const key = (k: string, init: KeyboardEventInit = {}, target: Element = viewport): KeyboardEvent => {
      const event = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
      target.dispatchEvent(event);
      return event;
    };
    expect(key('+').defaultPrevented).toBe(true);
    expect(pz.transform.k).toBeCloseTo(k0 * ZOOM_STEP);
    key('-');
    key('-');
    expect(pz.transform.k).toBeCloseTo(k0 / ZOOM_STEP);
    key('0');
    expect(pz.fitted).toBe(true);
    const x = pz.transform.x;
    key('ArrowLeft');
    expect(pz.transform.x).toBeCloseTo(x + 800 * 0.15);
    key('ArrowUp', { shiftKey: true });
    key('f');
    expect(pz.fitted).toBe(true);
    expect(reached).toEqual([]); // handled keys stop at the picture
    key('a');
    key('+', { ctrlKey: true }); // the browser's zoom, not ours
    key('+', {}, node); // not the picture's own focus (a control inside it)
    expect(reached).toEqual(['a', '+', '+']);
    expect(pz.fitted).toBe(true);
  });

  it('pans by dragging, swallows the click that ends a drag, and keeps a plain click', () => {
    const { pz, viewport, node } = viewer();
    pz.fit();
    const clicks: number[] = [];
    node.addEventListener('click', () => clicks.push(1));
    const t = pz.transform;
    node.dispatchEvent(pointer('pointerdown', 100, 100));
    node.dispatchEvent(pointer('pointermove', 102, 101)); // under the drag threshold
    expect(pz.transform).toEqual(t);
    node.dispatchEvent(pointer('pointermove', 130, 80));
    node.dispatchEvent(pointer('pointermove', 160, 60));
    node.dispatchEvent(pointer('pointerup', 160, 60));
    expect(pz.transform.x).toBeCloseTo(t.x + 60);
    expect(pz.transform.y).toBeCloseTo(t.y - 40);
    expect(viewport.classList.contains('jp-mod-dragging')).toBe(false);
    node.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(clicks).toEqual([]);
    node.dispatchEvent(pointer('pointerdown', 10, 10));
    node.dispatchEvent(pointer('pointerup', 11, 10));
    node.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(clicks).toEqual([1]);
  });

  it('pinch-zooms with two pointers', () => {
    const { pz, viewport } = viewer();
    pz.fit();
    const k = pz.transform.k;
    viewport.dispatchEvent(pointer('pointerdown', 300, 200, 1));
    viewport.dispatchEvent(pointer('pointerdown', 400, 200, 2));
    viewport.dispatchEvent(pointer('pointermove', 450, 200, 2));
    expect(pz.transform.k).toBeCloseTo(k * 1.5);
    viewport.dispatchEvent(pointer('pointerup', 450, 200, 2));
    viewport.dispatchEvent(pointer('pointerup', 300, 200, 1));
  });

  it('centres a rectangle, zooming to a least scale', () => {
    const { pz } = viewer();
    pz.fit();
    pz.focus({ x: 1400, y: 1100, width: 100, height: 40 }, { minScale: 0.75 }, false);
    expect(pz.transform.k).toBe(0.75);
    const [cx, cy] = screen(pz.transform, 1450, 1120);
    expect(cx).toBeCloseTo(400);
    expect(cy).toBeCloseTo(200);
    pz.focus({ x: 0, y: 0, width: 400, height: 200 }, { minScale: 0.75, maxScale: 1, zoomToFit: true }, false);
    expect(pz.transform.k).toBe(1);
  });

  it('stops listening when disposed', () => {
    const { pz, viewport } = viewer();
    pz.fit();
    const t = pz.transform;
    pz.dispose();
    viewport.dispatchEvent(new KeyboardEvent('keydown', { key: '+', bubbles: true }));
    viewport.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, ctrlKey: true }));
    expect(pz.transform).toEqual(t);
  });
});

describe('SearchCursor', () => {
  it('starts on the first hit and steps both ways, wrapping around', () => {
    const cursor = new SearchCursor<string>();
    expect(cursor.current).toBeNull();
    expect(cursor.step(1)).toBeNull();
    expect(cursor.label()).toBe('');
    expect(cursor.set(['a', 'b', 'c'])).toBe('a');
    expect(cursor.label()).toBe('1 / 3');
    expect(cursor.step(1)).toBe('b');
    expect(cursor.step(1)).toBe('c');
    expect(cursor.step(1)).toBe('a');
    expect(cursor.step(-1)).toBe('c');
    expect(cursor.label()).toBe('3 / 3');
    expect(cursor.moveTo('b')).toBe(true);
    expect(cursor.moveTo('z')).toBe(false);
    expect(cursor.current).toBe('b');
    cursor.clear();
    expect(cursor.hits).toEqual([]);
    expect(cursor.index).toBe(-1);
  });
});

describe('SVG geometry', () => {
  it('reads lengths and graphviz transforms', () => {
    expect(lengthPx('72pt')).toBeCloseTo(96);
    expect(lengthPx('10')).toBe(10);
    expect(lengthPx('2in')).toBe(192);
    expect(lengthPx('50%')).toBeNull();
    expect(lengthPx(null)).toBeNull();
    expect(simpleTransform('scale(1 1) rotate(0) translate(4 112)')).toEqual({ sx: 1, sy: 1, tx: 4, ty: 112 });
    expect(simpleTransform('scale(0.5)')).toEqual({ sx: 0.5, sy: 0.5, tx: 0, ty: 0 });
  });

  it("puts each box of graphviz's SVG where graphviz drew it, in CSS pixels", async () => {
    const svg = await renderDot(
      'digraph G { node [shape=box, style="rounded,filled"]; a [label="first"]; b [shape=ellipse]; ' +
        'subgraph cluster_x { label="group"; c [shape=box3d]; } a -> b; a -> c; }'
    );
    const geometry = graphGeometry(svg);
    const width = lengthPx(svg.getAttribute('width'))!;
    const height = lengthPx(svg.getAttribute('height'))!;
    expect(geometry.size).toEqual({ width, height });
    const boxes = new Map(
      Array.from(svg.querySelectorAll('g.node, g.cluster')).map(g => [
        g.querySelector('title')!.textContent,
        shapeBox(g, geometry)!
      ])
    );
    const picture = { x: 0, y: 0, width, height };
    for (const [title, box] of boxes) {
      expect(box.width, title!).toBeGreaterThan(10);
      expect(box.height, title!).toBeGreaterThan(10);
      expect(contains(picture, box, 1), title!).toBe(true);
    }
    const [a, b, c, cluster] = ['a', 'b', 'c', 'cluster_x'].map(id => boxes.get(id)!);
    expect(a.y + a.height).toBeLessThan(b.y); // rankdir TB: a above its users
    expect(a.y + a.height).toBeLessThan(c.y);
    expect(contains(cluster, c)).toBe(true); // the cluster's frame holds its node
    // the ellipse's box matches its own attributes
    const ellipse = svg.querySelector('g.node ellipse')!;
    expect(b.width).toBeCloseTo(2 * Number(ellipse.getAttribute('rx')) * (4 / 3), 1);
  });
});

describe('PanZoom with a real picture', () => {
  it('shows every node box inside the viewport after a fit', async () => {
    const svg = await renderDot(
      `digraph G { rankdir=TB; ${Array.from({ length: 12 }, (_, i) => `p${i} -> op;`).join(' ')} op -> out; }`
    );
    const geometry = graphGeometry(svg);
    const { pz } = viewer({ width: 500, height: 300 }, geometry.size);
    pz.fit();
    const view = { x: 0, y: 0, width: 500, height: 300 };
    const nodes = Array.from(svg.querySelectorAll('g.node'));
    expect(nodes).toHaveLength(14);
    for (const g of nodes) {
      expect(contains(view, toScreen(pz.transform, shapeBox(g, geometry)!))).toBe(true);
    }
    pz.zoomBy(4);
    expect(nodes.some(g => !contains(view, toScreen(pz.transform, shapeBox(g, geometry)!)))).toBe(true);
  });
});
