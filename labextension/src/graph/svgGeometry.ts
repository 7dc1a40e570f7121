/**
 * Geometry of a graphviz SVG read from its attributes, without the browser's layout: the picture's size in
 * CSS pixels, and the box of a drawn node or cluster in those pixels. The pan/zoom viewer centres nodes and
 * the minimap draws boxes from these, so both work the same in jsdom (which has no layout) and in a browser.
 *
 * Graphviz writes `width="62pt" height="116pt" viewBox="0.00 0.00 62.00 116.00"` on the root and
 * `transform="scale(1 1) rotate(0) translate(4 112)"` on its `g.graph`; shapes are polygons, paths (rounded
 * boxes: absolute `M`/`C` commands only), polylines and ellipses in graph coordinates (y grows upwards, so
 * the translate brings them into the picture).
 */
import type { IRect, ISize } from './transform';

/** CSS pixels per unit of an SVG length. */
const UNITS: Record<string, number> = { '': 1, px: 1, pt: 96 / 72, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** Where the graph coordinates of a picture land in CSS pixels: `px = (g + translate) * scale`. */
export interface IGraphGeometry {
  /** The picture's size in CSS pixels (its width and height attributes). */
  size: ISize;
  /** CSS pixels per graph unit, per axis (the viewBox's scale times g.graph's scale). */
  scaleX: number;
  scaleY: number;
  /** g.graph's translate less the viewBox origin, in graph units: `px = (g + d) * scale`. */
  dx: number;
  dy: number;
}

/**
 * A length attribute in CSS pixels (`62pt` -> 82.67); null when missing or in an unknown unit (`%`).
 */
export function lengthPx(value: string | null): number | null {
  const m = /^\s*([-+]?[\d.]+(?:e[-+]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
  if (!m || !(m[2].toLowerCase() in UNITS)) {
    return null;
  }
  const n = parseFloat(m[1]) * UNITS[m[2].toLowerCase()];
  return Number.isFinite(n) ? n : null;
}

/**
 * The numbers of a viewBox attribute, or null.
 */
function viewBox(svg: Element): [number, number, number, number] | null {
  const parts = (svg.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  return parts.length === 4 && parts.every(Number.isFinite) && parts[2] > 0 && parts[3] > 0
    ? [parts[0], parts[1], parts[2], parts[3]]
    : null;
}

/**
 * Scale and translate of a `transform` attribute written as graphviz does, `scale(s) rotate(0) translate(t)`:
 * a point p lands at `s * (p + t)`.
 */
export function simpleTransform(text: string | null): { sx: number; sy: number; tx: number; ty: number } {
  const out = { sx: 1, sy: 1, tx: 0, ty: 0 };
  for (const m of (text ?? '').matchAll(/(scale|translate)\s*\(([^)]*)\)/g)) {
    const args = m[2]
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (m[1] === 'scale') {
      out.sx = Number.isFinite(args[0]) ? args[0] : 1;
      out.sy = Number.isFinite(args[1]) ? args[1] : out.sx;
    } else {
      out.tx += Number.isFinite(args[0]) ? args[0] : 0;
      out.ty += Number.isFinite(args[1]) ? args[1] : 0;
    }
  }
  return out;
}

/**
 * The geometry of a graphviz picture: its CSS size and how graph coordinates map onto it.
 */
export function graphGeometry(svg: SVGSVGElement): IGraphGeometry {
  const box = viewBox(svg);
  const width = lengthPx(svg.getAttribute('width')) ?? box?.[2] ?? 0;
  const height = lengthPx(svg.getAttribute('height')) ?? box?.[3] ?? 0;
  const graph = svg.querySelector('g.graph') ?? svg.querySelector('g');
  const t = simpleTransform(graph?.getAttribute('transform') ?? null);
  const ux = box ? width / box[2] : 1;
  const uy = box ? height / box[3] : 1;
  return {
    size: { width, height },
    scaleX: ux * t.sx,
    scaleY: uy * t.sy,
    dx: t.tx - (box ? box[0] / t.sx : 0),
    dy: t.ty - (box ? box[1] / t.sy : 0)
  };
}

/** Shapes whose coordinates make up a box. */
const SHAPES = 'polygon, polyline, path, ellipse';

/**
 * The box of a drawn node or cluster group (`g.node`, `g.cluster`) in CSS pixels of the picture, from its
 * shapes' coordinates; null when it has none. A cluster's box is its frame (its first shape), not its
 * children.
 */
export function shapeBox(g: Element, geometry: IGraphGeometry): IRect | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (x: number, y: number): void => {
    if (Number.isFinite(x) && Number.isFinite(y)) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  };
  const shapes = g.classList.contains('cluster')
    ? Array.from(g.children)
        .filter(c => c.matches(SHAPES))
        .slice(0, 1)
    : Array.from(g.children).filter(c => c.matches(SHAPES));
  for (const shape of shapes) {
    if (shape.localName === 'ellipse') {
      const cx = Number(shape.getAttribute('cx'));
      const cy = Number(shape.getAttribute('cy'));
      const rx = Number(shape.getAttribute('rx'));
      const ry = Number(shape.getAttribute('ry'));
      add(cx - rx, cy - ry);
      add(cx + rx, cy + ry);
      continue;
    }
    const numbers = (shape.getAttribute(shape.localName === 'path' ? 'd' : 'points') ?? '').match(
      /[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi
    );
    for (let i = 0; numbers && i + 1 < numbers.length; i += 2) {
      add(Number(numbers[i]), Number(numbers[i + 1]));
    }
  }
  if (minX > maxX) {
    return null;
  }
  const x0 = (minX + geometry.dx) * geometry.scaleX;
  const x1 = (maxX + geometry.dx) * geometry.scaleX;
  const y0 = (minY + geometry.dy) * geometry.scaleY;
  const y1 = (maxY + geometry.dy) * geometry.scaleY;
  return { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}
