/**
 * Graph layout in the browser with WebAssembly graphviz (@hpcc-js/wasm-graphviz): no system graphviz.
 *
 * The library (about 800 KiB, wasm inlined) is imported lazily the first time a graph is drawn and cached
 * in `Private`. Its SVG output is parsed as XML and filtered through an allow-list of SVG elements and
 * attributes before it enters the page, so no markup from a report can reach the DOM as markup.
 */
import type { Graphviz } from '@hpcc-js/wasm-graphviz';

/** SVG elements graphviz emits for our DOT (everything else is dropped). */
const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'title', 'path', 'polygon', 'polyline', 'ellipse', 'text', 'tspan']);

/** Presentation attributes kept from graphviz's SVG. */
const ALLOWED_ATTRIBUTES = new Set([
  'class',
  'transform',
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'points',
  'd',
  'cx',
  'cy',
  'rx',
  'ry',
  'x',
  'y',
  'width',
  'height',
  'viewBox',
  'text-anchor',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'preserveAspectRatio',
  'opacity',
  'fill-opacity',
  'stroke-opacity'
]);

/**
 * Lay out DOT text and return a sanitized SVG element.
 */
export async function renderDot(dot: string): Promise<SVGSVGElement> {
  const graphviz = await Private.ensureGraphviz();
  const svgText = graphviz.layout(dot, 'svg', 'dot');
  return parseSvg(svgText);
}

/**
 * Parse graphviz SVG text into an element that holds only allow-listed SVG.
 */
export function parseSvg(svgText: string): SVGSVGElement {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length > 0) {
    throw new Error('graphviz returned SVG that could not be parsed');
  }
  sanitize(root);
  return document.importNode(root, true) as unknown as SVGSVGElement;
}

/** Drop every element and attribute not on the allow-lists, in place. */
function sanitize(el: Element): void {
  for (const attr of Array.from(el.attributes)) {
    if (!ALLOWED_ATTRIBUTES.has(attr.name)) {
      el.removeAttribute(attr.name);
    }
  }
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 1) {
      const childEl = child as Element;
      if (ALLOWED_ELEMENTS.has(childEl.localName)) {
        sanitize(childEl);
      } else {
        el.removeChild(child);
      }
    } else if (child.nodeType !== 3) {
      el.removeChild(child);
    }
  }
}

/**
 * Quote a string for DOT (an escString inside double quotes).
 */
export function dotString(text: string): string {
  return '"' + text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n') + '"';
}

/** Module-private state. */
namespace Private {
  let graphviz: Promise<Graphviz> | null = null;

  /**
   * Load the wasm graphviz once per page.
   */
  export function ensureGraphviz(): Promise<Graphviz> {
    if (!graphviz) {
      graphviz = import('@hpcc-js/wasm-graphviz').then(mod => mod.Graphviz.load());
      graphviz.catch(() => {
        graphviz = null;
      });
    }
    return graphviz;
  }
}
